#include "ops/onnx/recurrent.h"

#include <array>
#include <cctype>

#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "kernels/through_float.h"
#include "ops/attr_choice.h"
#include "ops/constant_use.h"
#include "ops/optional_input.h"

namespace bough::ops::recurrent {

namespace {
namespace recurrent_op {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

struct KindInfo {
  const char* name;
  Activation::Kind kind;
  bool uses_alpha, uses_beta;
  float alpha, beta;  // defaults
};

constexpr std::array<KindInfo, 11> kKinds{{
    {"relu", Activation::Kind::Relu, false, false, 0, 0},
    {"tanh", Activation::Kind::Tanh, false, false, 0, 0},
    {"sigmoid", Activation::Kind::Sigmoid, false, false, 0, 0},
    {"affine", Activation::Kind::Affine, true, true, 1, 0},
    {"leakyrelu", Activation::Kind::LeakyRelu, true, false, 0.01f, 0},
    {"thresholdedrelu", Activation::Kind::ThresholdedRelu, true, false, 1, 0},
    {"scaledtanh", Activation::Kind::ScaledTanh, true, true, 1, 1},
    {"hardsigmoid", Activation::Kind::HardSigmoid, true, true, 0.2f, 0.5f},
    {"elu", Activation::Kind::Elu, true, false, 1, 0},
    {"softsign", Activation::Kind::Softsign, false, false, 0, 0},
    {"softplus", Activation::Kind::Softplus, false, false, 0, 0},
}};

// Input i in the compute type, checked to have the element type of X and `dims`.
Tensor operand(const KernelIO& io, size_t i, ElemType type, std::initializer_list<int64_t> dims,
               const char* what) {
  const Tensor& t = io.input(i);
  if (t.type() != type)
    fail(ErrorKind::BadInput, "",
         std::string(what) + " has element type " + std::string(elem_name(t.type())) + ", X has " +
             std::string(elem_name(type)));
  if (t.shape() != Dims(dims))
    fail(ErrorKind::BadInput, "",
         std::string(what) + " has shape " + shape_string(t.shape()) + ", expected " +
             shape_string(Dims(dims)));
  return kernels::widen(t);
}

Tensor swap_leading(const Tensor& t) {
  const std::array<int64_t, 3> perm{1, 0, 2};
  return kernels::transpose(t, perm);
}

// The `direction` attribute.
enum class Way { Forward, Reverse, Both };
Way read_direction(const NodeView& ctx) {
  return attr_choice<Way>(
      ctx, "direction", "forward",
      {{"forward", Way::Forward}, {"reverse", Way::Reverse}, {"bidirectional", Way::Both}});
}

}  // namespace recurrent_op
}  // namespace

Config read_config(const BuildContext& ctx, std::span<const char* const> defaults) {
  using namespace recurrent_op;
  Config cfg;
  const Way way = read_direction(ctx);
  cfg.dirs = way == Way::Both ? 2 : 1;
  cfg.reverse_only = way == Way::Reverse;
  cfg.hidden = ctx.attr_int("hidden_size", 0);
  if (ctx.has_attr("hidden_size") && cfg.hidden <= 0) ctx.invalid("hidden_size must be positive");
  cfg.clip = ctx.has_attr("clip") ? ctx.attr_float("clip", 0) : 0;
  if (ctx.has_attr("clip") && !(cfg.clip > 0)) ctx.invalid("clip must be positive");
  cfg.batch_first = ctx.attr_int("layout", 0) != 0;
  cfg.per_direction = static_cast<int>(defaults.size());

  std::vector<std::string> names;
  if (const ir::Attribute* a = ctx.attr("activations"); a && !a->strings.empty()) {
    names = a->strings;
  } else {
    for (int d = 0; d < cfg.dirs; ++d)
      for (const char* n : defaults) names.emplace_back(n);
  }
  // One direction's list given for both directions: use it twice.
  if (cfg.dirs == 2 && names.size() == defaults.size())
    names.insert(names.end(), names.begin(), names.end());
  if (names.size() != defaults.size() * static_cast<size_t>(cfg.dirs))
    ctx.invalid("expected " + std::to_string(defaults.size() * static_cast<size_t>(cfg.dirs)) +
                " activations, got " + std::to_string(names.size()));

  const ir::Attribute* alphas = ctx.attr("activation_alpha");
  const ir::Attribute* betas = ctx.attr("activation_beta");
  size_t next_alpha = 0, next_beta = 0;
  for (const std::string& name : names) {
    const std::string key = lower(name);
    const KindInfo* info = nullptr;
    for (const KindInfo& k : kKinds)
      if (key == k.name) info = &k;
    if (!info) ctx.invalid("unknown activation \"" + name + "\"");
    Activation act{info->kind, info->alpha, info->beta};
    if (info->uses_alpha && alphas && next_alpha < alphas->floats.size())
      act.alpha = alphas->floats[next_alpha++];
    if (info->uses_beta && betas && next_beta < betas->floats.size())
      act.beta = betas->floats[next_beta++];
    cfg.acts.push_back(act);
  }
  return cfg;
}

namespace {
namespace recurrent_op {

// Checks X against weights prepared at plan time, as operand() would check W itself.
void check_prepared(const Inputs& in, const PreparedWeights& p) {
  if (p.type != in.type)
    fail(ErrorKind::BadInput, "",
         "W has element type " + std::string(elem_name(p.type)) + ", X has " +
             std::string(elem_name(in.type)));
  const Dims expected{p.w_shape[0], p.w_shape[1], in.input};
  if (p.w_shape != expected)
    fail(ErrorKind::BadInput, "",
         "W has shape " + shape_string(p.w_shape) + ", expected " + shape_string(expected));
}

}  // namespace recurrent_op
}  // namespace

Inputs read_inputs(KernelIO& io, const Config& cfg, int gates, const char* name,
                   const PreparedWeights* prepared) {
  using namespace recurrent_op;
  Inputs in;
  const Tensor& x = io.input(0);
  in.type = x.type();
  if (!kernels::is_computed_float(in.type))
    fail(ErrorKind::Unsupported, "",
         std::string(name) + " does not support element type " + std::string(elem_name(in.type)));
  if (x.rank() != 3)
    fail(ErrorKind::BadInput, "", "X must be 3-D, got shape " + shape_string(x.shape()));
  in.x = kernels::widen(x);
  if (cfg.batch_first) in.x = swap_leading(in.x);
  in.seq = in.x.dim(0);
  in.batch = in.x.dim(1);
  in.input = in.x.dim(2);

  const int64_t dirs = cfg.dirs;
  if (prepared) {
    check_prepared(in, *prepared);
    in.hidden = prepared->hidden;
  } else {
    const Tensor& r = io.input(2);
    if (r.rank() != 3)
      fail(ErrorKind::BadInput, "", "R must be 3-D, got shape " + shape_string(r.shape()));
    in.hidden = cfg.hidden > 0 ? cfg.hidden : r.dim(2);
    const int64_t gh = gates * in.hidden;
    in.w = operand(io, 1, in.type, {dirs, gh, in.input}, "W");
    in.r = operand(io, 2, in.type, {dirs, gh, in.hidden}, "R");
    if (given_input(io, 3)) in.b = operand(io, 3, in.type, {dirs, 2 * gh}, "B");
  }
  const int64_t h = in.hidden;

  in.lens.assign(static_cast<size_t>(in.batch), in.seq);
  if (given_input(io, 4)) {
    const Tensor& sl = io.input(4);
    if (sl.type() != ElemType::Int32 && sl.type() != ElemType::Int64)
      fail(ErrorKind::BadInput, "", "sequence_lens must be int32");
    if (sl.shape() != Dims{in.batch})
      fail(ErrorKind::BadInput, "",
           "sequence_lens has shape " + shape_string(sl.shape()) + ", expected [" +
               std::to_string(in.batch) + "]");
    for (int64_t i = 0; i < in.batch; ++i) {
      const int64_t v = sl.get_int(i);
      if (v < 0 || v > in.seq)
        fail(ErrorKind::BadInput, "",
             "sequence length " + std::to_string(v) + " is outside [0, " + std::to_string(in.seq) +
                 "]");
      in.lens[static_cast<size_t>(i)] = v;
    }
  }
  auto state = [&](size_t i, const char* what) {
    if (!given_input(io, i)) return Tensor();
    if (!cfg.batch_first) return operand(io, i, in.type, {dirs, in.batch, h}, what);
    return swap_leading(operand(io, i, in.type, {in.batch, dirs, h}, what));
  };
  in.h0 = state(5, "initial_h");
  if (gates == 4) {
    in.c0 = state(6, "initial_c");
    if (given_input(io, 7)) in.p = operand(io, 7, in.type, {dirs, 3 * h}, "P");
  }
  return in;
}

States start_states(const KernelIO& io, const Inputs& in, const Config& cfg, bool cell) {
  const ElemType ct = in.x.type();
  const Dims state{cfg.dirs, in.batch, in.hidden};
  States s;
  if (io.has_output(0)) s.y = Tensor::zeros(ct, Dims{in.seq, cfg.dirs, in.batch, in.hidden});
  s.yh = in.h0.defined() ? in.h0.clone() : Tensor::zeros(ct, state);
  if (cell) s.yc = in.c0.defined() ? in.c0.clone() : Tensor::zeros(ct, state);
  return s;
}

void write_outputs(KernelIO& io, const Config& cfg, ElemType type, const Tensor& y,
                   const Tensor& yh, const Tensor* yc) {
  using namespace recurrent_op;
  auto out = [&](const Tensor& t) { return kernels::narrow_to(t, type); };
  if (io.has_output(0)) {
    if (cfg.batch_first) {
      const std::array<int64_t, 4> perm{2, 0, 1, 3};
      io.set_output(0, out(kernels::transpose(y, perm)));
    } else {
      io.set_output(0, out(y));
    }
  }
  io.set_output(1, out(cfg.batch_first ? swap_leading(yh) : yh));
  if (yc) io.set_output(2, out(cfg.batch_first ? swap_leading(*yc) : *yc));
}

template <typename T>
void gemm(const T* a, const T* b, T* c, int64_t m, int64_t k, int64_t n, util::ThreadPool& pool) {
  const int64_t zero = 0;
  kernels::batched_matmul<T>(a, b, c, {&zero, 1}, {&zero, 1}, m, k, n, pool);
}

namespace {
namespace recurrent_op {

// Rows [row0, row0 + rows) of the row-major matrix w (cols wide), transposed: cols x rows.
template <typename T>
std::vector<T> transposed_rows(const T* w, int64_t row0, int64_t rows, int64_t cols) {
  std::vector<T> out(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      out[static_cast<size_t>(j * rows + i)] = w[(row0 + i) * cols + j];
  return out;
}

}  // namespace recurrent_op
}  // namespace

template <typename T>
Weights<T> direction_weights(const Tensor& w, const Tensor& r, const Tensor& b, int d, int gates) {
  using namespace recurrent_op;
  const int64_t H = r.dim(2), G = gates * H, I = w.dim(2), split = r_split(gates, H);
  Weights<T> out;
  out.wt = transposed_rows(w.data<T>() + d * G * I, 0, G, I);
  const T* rd = r.data<T>() + d * G * H;
  out.rt_head = transposed_rows(rd, 0, split, H);
  if (split < G) out.rt_tail = transposed_rows(rd, split, G - split, H);
  out.wb.assign(static_cast<size_t>(G), T(0));
  out.rb.assign(static_cast<size_t>(G), T(0));
  if (b.defined()) {
    const T* bd = b.data<T>() + d * 2 * G;
    std::copy_n(bd, G, out.wb.begin());
    std::copy_n(bd + G, G, out.rb.begin());
  }
  out.summed.resize(static_cast<size_t>(G));
  for (size_t j = 0; j < out.summed.size(); ++j) out.summed[j] = out.wb[j] + out.rb[j];
  return out;
}

std::unique_ptr<const PreparedWeights> prepare(const BuildContext& ctx, const Config& cfg,
                                               int gates) {
  const Tensor* w = ctx.constant_input(1);
  const Tensor* r = ctx.constant_input(2);
  const bool has_b = ctx.node.inputs.size() > 3 && ctx.node.inputs[3];
  const Tensor* b = has_b ? ctx.constant_input(3) : nullptr;
  if (!w || !r || (has_b && !b)) return nullptr;
  // Anything unexpected is left to the run, which reports it.
  const ElemType type = w->type();
  if (!kernels::is_computed_float(type) || r->type() != type || (b && b->type() != type) ||
      w->rank() != 3 || r->rank() != 3)
    return nullptr;
  const int64_t dirs = cfg.dirs, hidden = cfg.hidden > 0 ? cfg.hidden : r->dim(2);
  const int64_t gh = gates * hidden;
  if (w->dim(0) != dirs || w->dim(1) != gh || r->shape() != Dims{dirs, gh, hidden} ||
      (b && b->shape() != Dims{dirs, 2 * gh}))
    return nullptr;
  auto p = std::make_unique<PreparedWeights>();
  p->type = type;
  p->w_shape = w->shape();
  p->hidden = hidden;
  const Tensor wc = kernels::widen(*w), rc = kernels::widen(*r);
  const Tensor bc = b ? kernels::widen(*b) : Tensor();
  for (int d = 0; d < dirs; ++d) {
    if (type == ElemType::Double)
      p->f64.push_back(direction_weights<double>(wc, rc, bc, d, gates));
    else
      p->f32.push_back(direction_weights<float>(wc, rc, bc, d, gates));
  }
  ctx.count_prepared(b ? 3 : 2);
  for (size_t i = 1; i <= (b ? 3u : 2u); ++i) consume_constant_input(ctx, i);  // never read again
  return p;
}

template <typename T>
Direction<T>::Direction(const Inputs& in, const Config& cfg, States& st, int d,
                        const Weights<T>& weights, util::ThreadPool& pool)
    : in(in),
      walk(in, cfg, d),
      weights(weights),
      gate_rows(static_cast<int64_t>(weights.summed.size())),
      xw(static_cast<size_t>(in.seq * in.batch * gate_rows)),
      act(cfg.acts.data() + d * cfg.per_direction),
      h(st.yh.data<T>() + d * in.batch * in.hidden),
      c(st.yc.defined() ? st.yc.data<T>() + d * in.batch * in.hidden : nullptr),
      y(st.y.defined() ? st.y.data<T>() : nullptr) {
  gemm(in.x.data<T>(), weights.wt.data(), xw.data(), in.seq * in.batch, in.input, gate_rows, pool);
}

template struct Direction<float>;
template struct Direction<double>;
template Weights<float> direction_weights<float>(const Tensor&, const Tensor&, const Tensor&, int,
                                                 int);
template Weights<double> direction_weights<double>(const Tensor&, const Tensor&, const Tensor&, int,
                                                   int);
template void gemm<float>(const float*, const float*, float*, int64_t, int64_t, int64_t,
                          util::ThreadPool&);
template void gemm<double>(const double*, const double*, double*, int64_t, int64_t, int64_t,
                           util::ThreadPool&);

void infer(InferContext& ctx, int gates) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& w = ctx.input_shape(1);
  const int64_t dirs = recurrent_op::read_direction(ctx) == recurrent_op::Way::Both ? 2 : 1;
  const bool batch_first = ctx.since >= 14 && ctx.attr_int("layout", 0) != 0;
  if (x.rank_known && x.dims.size() != 3)
    ctx.invalid("X must be 3-D, not rank " + std::to_string(x.dims.size()));
  if (w.rank_known && w.dims.size() != 3)
    ctx.invalid("W must be 3-D, not rank " + std::to_string(w.dims.size()));
  if (w.rank_known && w.dims[0].is_known() && w.dims[0].value != dirs)
    ctx.invalid("W has " + std::to_string(w.dims[0].value) + " directions, direction '" +
                ctx.attr_string("direction", "forward") + "' needs " + std::to_string(dirs));
  ir::Dim seq, batch, hidden;
  if (x.rank_known) {
    seq = x.dims[batch_first ? 1 : 0];
    batch = x.dims[batch_first ? 0 : 1];
  }
  if (ctx.has_attr("hidden_size")) {
    hidden = ir::Dim::known(ctx.attr_int("hidden_size", 0));
  } else if (w.rank_known && w.dims[1].is_known()) {
    if (w.dims[1].value % gates != 0)
      ctx.invalid("W's dim 1 (" + std::to_string(w.dims[1].value) + ") is not a multiple of " +
                  std::to_string(gates));
    hidden = ir::Dim::known(w.dims[1].value / gates);
  }
  const ir::Dim d = ir::Dim::known(dirs);
  const ElemType t = ctx.input_elem(0);
  if (ctx.num_outputs() > 0)
    ctx.set_output_tensor(0, t,
                          batch_first ? ir::Shape::of({batch, seq, d, hidden})
                                      : ir::Shape::of({seq, d, batch, hidden}));
  const ir::Shape state =
      batch_first ? ir::Shape::of({batch, d, hidden}) : ir::Shape::of({d, batch, hidden});
  for (size_t o = 1; o < ctx.num_outputs(); ++o) ctx.set_output_tensor(o, t, state);
}

}  // namespace bough::ops::recurrent
