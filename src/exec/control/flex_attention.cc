// ai.onnx.preview FlexAttention-1: scaled dot-product attention over rank-4 Q (B, Hq, L, E),
// K (B, Hkv, S, E), V (B, Hkv, S, Ev), with two optional modifier subgraphs:
//
//   scores = (Q · Kᵀ) * scale        scale defaults to 1/sqrt(E)
//   scores = score_mod(scores)       (B, Hq, L, S) -> same shape and type
//   probs  = Softmax(scores, axis=-1)
//   probs  = prob_mod(probs)         (B, Hq, L, S) -> same shape and type
//   Y      = probs · V               (B, Hq, L, Ev), Q's element type
//
// Query head h reads key/value head h / (Hq / Hkv) (grouped-query attention). The score
// block has the softmax_precision element type (float for every input type but double,
// which keeps double); a modifier receives it as one tensor and returns one tensor of the
// same type and shape. A modifier is an elementwise rule in practice (a bias, a mask, a soft
// cap), so it runs once per call on the whole block, compiled once into a plan like an If
// branch, with its captures bound by reference: never once per score.
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "check/control_flow_rules.h"
#include "exec/control/subgraph.h"
#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "kernels/softmax_rows.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace flex_attention_op {

[[noreturn]] void bad(const std::string& message) {
  fail(ErrorKind::BadInput, "", "FlexAttention " + message);
}

// The block type: softmax_precision when given, else float (double for double inputs).
ElemType softmax_type(std::optional<ElemType> precision, ElemType input) {
  if (precision) return *precision;
  return input == ElemType::Double ? ElemType::Double : ElemType::Float;
}

// The dims the computation runs over, read from Q, K and V and checked against each other.
struct Dims4 {
  int64_t batch, q_heads, kv_heads, q_seq, kv_seq, size, v_size;
};

Dims4 dims_of(const Tensor& q, const Tensor& k, const Tensor& v) {
  if (k.type() != q.type() || v.type() != q.type())
    bad("needs Q, K and V of one element type, got " + std::string(elem_name(q.type())) + ", " +
        std::string(elem_name(k.type())) + " and " + std::string(elem_name(v.type())));
  if (q.rank() != 4 || k.rank() != 4 || v.rank() != 4)
    bad("needs rank-4 Q, K and V, got " + shape_string(q.shape()) + ", " + shape_string(k.shape()) +
        " and " + shape_string(v.shape()));
  const Dims4 d{q.dim(0), q.dim(1), k.dim(1), q.dim(2), k.dim(2), q.dim(3), v.dim(3)};
  if (k.dim(0) != d.batch || v.dim(0) != d.batch)
    bad("needs one batch size in Q, K and V, got " + shape_string(q.shape()) + ", " +
        shape_string(k.shape()) + " and " + shape_string(v.shape()));
  if (v.dim(1) != d.kv_heads || v.dim(2) != d.kv_seq)
    bad("needs K and V with the same heads and sequence length, got " + shape_string(k.shape()) +
        " and " + shape_string(v.shape()));
  if (k.dim(3) != d.size)
    bad("needs Q and K with one head size, got " + shape_string(q.shape()) + " and " +
        shape_string(k.shape()));
  if (d.kv_heads <= 0 || d.q_heads % d.kv_heads != 0)
    bad("needs q_num_heads (" + std::to_string(d.q_heads) + ") to be a multiple of kv_num_heads (" +
        std::to_string(d.kv_heads) + ")");
  return d;
}

// Offsets of each (batch, query head) matrix of A, and of the key/value head matrix it reads.
struct HeadOffsets {
  std::vector<int64_t> a, b;
};

HeadOffsets head_offsets(const Dims4& d, int64_t a_size, int64_t b_size) {
  HeadOffsets o;
  const int64_t group = d.q_heads / d.kv_heads;
  for (int64_t b = 0; b < d.batch; ++b)
    for (int64_t h = 0; h < d.q_heads; ++h) {
      o.a.push_back((b * d.q_heads + h) * a_size);
      o.b.push_back((b * d.kv_heads + h / group) * b_size);
    }
  return o;
}

// scores (B, Hq, L, S) = (Q · Kᵀ) * scale, in Q's type (float or double).
template <typename T>
Tensor scores_of(const Tensor& q, const Tensor& k, const Dims4& d, T scale,
                 util::ThreadPool& pool) {
  const int64_t perm[] = {0, 1, 3, 2};
  const Tensor kt = kernels::transpose(k, perm);  // (B, Hkv, E, S)
  Tensor s(q.type(), {d.batch, d.q_heads, d.q_seq, d.kv_seq});
  const HeadOffsets off = head_offsets(d, d.q_seq * d.size, d.size * d.kv_seq);
  kernels::batched_matmul<T>(q.data<T>(), kt.data<T>(), s.data<T>(), off.a, off.b, d.q_seq, d.size,
                             d.kv_seq, pool);
  T* p = s.data<T>();
  const int64_t n = s.numel();
  pool.parallel_for_work(n, 1, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) p[i] *= scale;
  });
  return s;
}

// Softmax along the last axis, into a new tensor (the scores may be a modifier's output,
// which other values can share).
template <typename T>
Tensor softmax_of(const Tensor& s, util::ThreadPool& pool) {
  Tensor p(s.type(), s.shape());
  const int64_t n = s.dim(3), rows = n == 0 ? 0 : s.numel() / n;
  const T* x = s.data<T>();
  T* y = p.data<T>();
  pool.parallel_for_work(
      rows, n, [&](int64_t r0, int64_t r1) { kernels::softmax_blocks<false>(x, y, r0, r1, n, 1); });
  return p;
}

// Y (B, Hq, L, Ev) = probs · V.
template <typename T>
Tensor weighted_values(const Tensor& probs, const Tensor& v, const Dims4& d,
                       util::ThreadPool& pool) {
  Tensor y(probs.type(), {d.batch, d.q_heads, d.q_seq, d.v_size});
  const HeadOffsets off = head_offsets(d, d.q_seq * d.kv_seq, d.kv_seq * d.v_size);
  kernels::batched_matmul<T>(probs.data<T>(), v.data<T>(), y.data<T>(), off.a, off.b, d.q_seq,
                             d.kv_seq, d.v_size, pool);
  return y;
}

class FlexAttention : public Kernel {
 public:
  FlexAttention(std::optional<Body> score_mod, std::optional<Body> prob_mod,
                std::optional<float> scale, std::optional<ElemType> precision)
      : score_mod_(std::move(score_mod)),
        prob_mod_(std::move(prob_mod)),
        scale_(scale),
        precision_(precision) {}

  void run(KernelIO& io) override {
    const Tensor& q_in = io.input(0);
    const Tensor& k_in = io.input(1);
    const Tensor& v_in = io.input(2);
    const Dims4 d = dims_of(q_in, k_in, v_in);
    const ElemType block = softmax_type(precision_, q_in.type());
    // float16/bfloat16 blocks are computed in float and rounded at each stage.
    const ElemType compute = block == ElemType::Double ? ElemType::Double : ElemType::Float;
    const Tensor q = kernels::cast(q_in, compute);
    const Tensor k = kernels::cast(k_in, compute);
    const Tensor v = kernels::cast(v_in, compute);
    const double scale =
        scale_ ? static_cast<double>(*scale_) : 1.0 / std::sqrt(static_cast<double>(d.size));
    Tensor y = kernels::visit_float(compute, "FlexAttention", [&](auto tag) {
      using T = typename decltype(tag)::type;
      util::ThreadPool& pool = io.pool();
      Tensor s = scores_of<T>(q, k, d, static_cast<T>(scale), pool);
      s = stage(score_mod_ ? &*score_mod_ : nullptr, s, block, "score_mod", io);
      Tensor p = softmax_of<T>(s, pool);
      p = stage(prob_mod_ ? &*prob_mod_ : nullptr, p, block, "prob_mod", io);
      return stage(nullptr, weighted_values<T>(p, v, d, pool), block, "", io);
    });
    io.set_output(0, kernels::cast(y, q_in.type()));
  }

 private:
  // The block in its softmax type, through `body` when given (once, on the whole block),
  // back in the compute type.
  static Tensor stage(Body* body, const Tensor& x, ElemType block, const char* what, KernelIO& io) {
    if (!body) return kernels::is_narrow_float(block) ? kernels::widen(kernels::cast(x, block)) : x;
    Value in = kernels::cast(x, block), out;
    exec::Plan& plan = *body->plan;
    plan.bind_input(0, in);
    body->bind_captures(io);
    plan.run(io.context());
    plan.take_output(0, out);
    plan.reset();
    if (!out.is_tensor() || out.tensor().type() != block || out.tensor().shape() != x.shape())
      bad(std::string(what) + " must return a tensor(" + std::string(elem_name(block)) + ") " +
          shape_string(x.shape()) + ", got " + describe(out));
    return kernels::cast(out.tensor(), x.type());
  }

  std::optional<Body> score_mod_, prob_mod_;
  std::optional<float> scale_;
  std::optional<ElemType> precision_;
};

// The modifier graph `name`, null when absent; refused unless it has one input and one output.
const ir::Graph* modifier_graph(const NodeView& view, const char* name) {
  if (!view.has_attr(name)) return nullptr;
  const ir::Graph& g = view.graph_attr(name);
  if (g.inputs.size() != 1 || g.outputs.size() != 1)
    view.invalid(std::string(name) + " must take one input and yield one output, got " +
                 std::to_string(g.inputs.size()) + " and " + std::to_string(g.outputs.size()));
  return &g;
}

std::optional<Body> modifier(const BuildContext& ctx, const char* name) {
  const ir::Graph* g = modifier_graph(ctx, name);
  if (!g) return std::nullopt;
  return Body::compile(ctx, *g);
}

std::optional<ElemType> precision_attr(const NodeView& view) {
  if (!view.has_attr("softmax_precision")) return std::nullopt;
  const auto p = static_cast<ElemType>(view.attr_int("softmax_precision", 1));
  if (!kernels::is_computed_float(p))
    view.invalid("softmax_precision must be float, float16, bfloat16 or double (1, 10, 16 or 11)");
  return p;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::optional<float> scale;
  if (ctx.has_attr("scale")) scale = ctx.attr_float("scale", 1.0f);
  std::optional<ElemType> precision = precision_attr(ctx);
  return std::make_unique<FlexAttention>(modifier(ctx, "score_mod"), modifier(ctx, "prob_mod"),
                                         scale, precision);
}

// A modifier's input and output against the block type they must keep. An input declared
// with another element type is reported where the subgraph is inferred; a declared shape
// that cannot describe the block is reported here.
void infer_modifier(InferContext& ctx, const char* name, const ir::Type& block) {
  const ir::Graph* g = modifier_graph(ctx, name);
  if (!g) return;
  const ir::Edge* in = g->inputs[0];
  if (in->has_value_info && check::kinds_agree(in->type, block) &&
      !check::compatible(in->type, block))
    ctx.error(std::string(name) + " declares its input " + ir::to_string(in->type) +
              ", but the score block is " + ir::to_string(block));
  const std::vector<ir::Type> out = ctx.infer_subgraph(*g, {block});
  if (out.empty() || out[0].kind == ir::Type::Kind::Undefined) return;
  if (!check::kinds_agree(out[0], block) || !check::compatible(block, out[0]))
    ctx.error(std::string(name) + " must return " + ir::to_string(block) + ", but it yields " +
              ir::to_string(out[0]));
}

// Y (B, Hq, L, Ev) of Q's type; the modifiers see the (B, Hq, L, S) block.
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& qs = ctx.input_shape(0);
  const ir::Shape& ks = ctx.input_shape(1);
  const ir::Shape& vs = ctx.input_shape(2);
  const ir::Shape* shapes[] = {&qs, &ks, &vs};
  for (const ir::Shape* s : shapes)
    if (s->rank_known && s->dims.size() != 4)
      ctx.invalid("needs rank-4 Q, K and V, got " + ir::to_string(ir::Type::tensor(elem, *s)));
  const bool known = qs.rank_known && ks.rank_known && vs.rank_known;
  if (known) {
    same_dim(ctx, qs.dims[3], ks.dims[3], "the head sizes of Q and K");
    same_dim(ctx, ks.dims[1], vs.dims[1], "the heads of K and V");
    same_dim(ctx, ks.dims[2], vs.dims[2], "the sequence lengths of K and V");
    const auto hq = dim_value(qs.dims[1]), hkv = dim_value(ks.dims[1]);
    if (hq && hkv && (*hkv <= 0 || *hq % *hkv != 0))
      ctx.invalid("needs q_num_heads (" + std::to_string(*hq) +
                  ") to be a multiple of kv_num_heads (" + std::to_string(*hkv) + ")");
  }
  const std::optional<ElemType> precision = precision_attr(ctx);
  const ElemType block_elem = elem == ElemType::Undefined && !precision
                                  ? ElemType::Undefined
                                  : softmax_type(precision, elem);
  const ir::Shape block_shape =
      known ? ir::Shape::of({qs.dims[0], qs.dims[1], qs.dims[2], ks.dims[2]})
            : ir::Shape::of(
                  {ir::Dim::unknown(), ir::Dim::unknown(), ir::Dim::unknown(), ir::Dim::unknown()});
  const ir::Type block = ir::Type::tensor(block_elem, block_shape);
  infer_modifier(ctx, "score_mod", block);
  infer_modifier(ctx, "prob_mod", block);
  if (!known) return ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
  ir::Dim batch = same_dim(ctx, qs.dims[0], ks.dims[0], "the batch sizes of Q and K");
  batch = same_dim(ctx, batch, vs.dims[0], "the batch sizes of Q and V");
  ctx.set_output_tensor(0, elem, ir::Shape::of({batch, qs.dims[1], qs.dims[2], vs.dims[3]}));
}

constexpr SignatureText kRows[] = {
    {1,
     "Q: T1, K: T1, V: T1 -> Y: T1; T1 = floats bfloat16; prob_mod: graph?, scale: float?, "
     "score_mod: graph?, softmax_precision: int?"}};

}  // namespace flex_attention_op
}  // namespace

OpDef def_FlexAttention() {
  using namespace flex_attention_op;
  return def_from_rows("ai.onnx.preview", "FlexAttention", make, infer, kRows);
}

}  // namespace bough::ops
