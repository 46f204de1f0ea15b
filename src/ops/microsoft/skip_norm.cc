#include "ops/microsoft/skip_norm.h"

#include <string>

#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/shape_infer.h"

namespace bough::ops::microsoft {

namespace {
namespace skip_norm_op {

[[noreturn]] void bad(const char* op, const std::string& message) {
  fail(ErrorKind::BadInput, "", std::string(op) + ": " + message);
}

// skip's dims without its leading 1s must be x's trailing dims.
void check_skip(const Tensor& x, const Tensor& skip, const char* op) {
  size_t lead = 0;
  while (lead < skip.rank() && skip.dim(lead) == 1 && skip.rank() - lead > 0) ++lead;
  bool fits = skip.rank() <= x.rank();
  for (size_t d = lead; fits && d < skip.rank(); ++d)
    fits = skip.dim(d) == x.dim(x.rank() - skip.rank() + d);
  if (!fits)
    bad(op, "skip of shape " + shape_string(skip.shape()) + " does not fit input of shape " +
                shape_string(x.shape()));
}

template <typename T>
NormOutputs normalize(const NormInputs& in, int64_t axis, bool simplified, double epsilon,
                      bool want_sum, util::ThreadPool& pool) {
  const Tensor& x = *in.x;
  Dims stat_shape;
  for (size_t d = 0; d < x.rank(); ++d)
    stat_shape.push_back(static_cast<int64_t>(d) < axis ? x.dim(d) : 1);
  const int64_t rows = stat_shape.numel(), inner = rows ? x.numel() / rows : 0;
  const T* px = x.data<T>();
  const T* pk = in.skip ? in.skip->data<T>() : nullptr;
  const int64_t skip_n = in.skip ? in.skip->numel() : 1;
  const T* pg = in.gamma->data<T>();
  const T* pbeta = in.beta ? in.beta->data<T>() : nullptr;
  const T* pbias = in.bias ? in.bias->data<T>() : nullptr;

  // s = x + skip + bias, only materialized when there is something to add.
  Tensor sum = x;
  if (pk || pbias) {
    sum = Tensor(x.type(), x.shape());
    T* ps = sum.data<T>();
    pool.parallel_for(x.numel(), util::grain_for(kernels::kElementWork),
                      [&](int64_t lo, int64_t hi) {
                        for (int64_t i = lo; i < hi; ++i) {
                          T v = px[i];
                          if (pk) v += pk[i % skip_n];
                          if (pbias) v += pbias[i % inner];
                          ps[i] = v;
                        }
                      });
  }
  const T* ps = sum.data<T>();
  kernels::Moments m;
  if (simplified) {
    m.mean.resize(static_cast<size_t>(rows));
    m.inv_std.resize(static_cast<size_t>(rows));
    pool.parallel_for(
        rows, util::grain_for(inner * kernels::kElementWork), [&](int64_t lo, int64_t hi) {
          for (int64_t r = lo; r < hi; ++r) {
            m.mean[static_cast<size_t>(r)] = 0.0;  // none is taken; ONNX Runtime gives 0
            m.inv_std[static_cast<size_t>(r)] =
                kernels::inverse_rms(ps + r * inner, inner, epsilon);
          }
        });
  } else {
    m = kernels::pool_moments(ps, rows, inner, epsilon, pool);
  }
  NormOutputs out{Tensor(x.type(), x.shape()), want_sum ? sum : Tensor(),
                  Tensor(ElemType::Double, stat_shape), Tensor(ElemType::Double, stat_shape)};
  T* py = out.y.data<T>();
  pool.parallel_for(
      rows, util::grain_for(inner * kernels::kElementWork), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          const auto k = static_cast<T>(m.inv_std[static_cast<size_t>(r)]);
          const T mean = simplified ? T(0) : static_cast<T>(m.mean[static_cast<size_t>(r)]);
          for (int64_t i = 0; i < inner; ++i)
            py[r * inner + i] = (ps[r * inner + i] - mean) * k * pg[i] + (pbeta ? pbeta[i] : T(0));
        }
      });
  std::copy(m.mean.begin(), m.mean.end(), out.mean.data<double>());
  std::copy(m.inv_std.begin(), m.inv_std.end(), out.inv_std.data<double>());
  return out;
}

class SkipNorm : public Kernel {
 public:
  SkipNorm(bool simplified, double epsilon) : simplified_(simplified), epsilon_(epsilon) {}
  void run(KernelIO& io) override {
    const char* op = simplified_ ? "SkipSimplifiedLayerNormalization" : "SkipLayerNormalization";
    const Tensor& x = io.input(0);
    if (x.rank() < 2) bad(op, "input must have rank 2 or more, got " + shape_string(x.shape()));
    auto optional = [&](size_t i) { return io.has_input(i) ? &io.input(i) : nullptr; };
    NormInputs in{&x, &io.input(1), &io.input(2), simplified_ ? nullptr : optional(3),
                  optional(simplified_ ? 3 : 4)};
    NormOutputs r = skip_normalize(in, static_cast<int64_t>(x.rank()) - 1, simplified_, epsilon_,
                                   io.has_output(3), io.pool(), op);
    io.set_output(0, std::move(r.y));
    if (io.has_output(1)) io.set_output(1, kernels::cast(r.mean, ElemType::Float));
    if (io.has_output(2)) io.set_output(2, kernels::cast(r.inv_std, ElemType::Float));
    io.set_output(3, std::move(r.sum));
  }

 private:
  bool simplified_;
  double epsilon_;
};

template <bool Simplified>
std::unique_ptr<Kernel> make_skip_norm(const BuildContext& ctx) {
  return std::make_unique<SkipNorm>(Simplified, ctx.attr_float("epsilon", 1e-12f));
}

// Outputs mean and inv_std_var in float, of the input's dims with a last dim of 1, and
// input_skip_bias_sum at 3.
void infer_skip(InferContext& ctx) { infer_skip_norm(ctx, -1, {1, 2}, ElemType::Float, 3); }

}  // namespace skip_norm_op
}  // namespace

OpDef skip_norm_def(std::string_view name, bool simplified, std::span<const SignatureText> rows) {
  using namespace skip_norm_op;
  return def_from_rows("com.microsoft", name,
                       simplified ? make_skip_norm<true> : make_skip_norm<false>, infer_skip, rows);
}

NormOutputs skip_normalize(const NormInputs& in, int64_t axis, bool simplified, double epsilon,
                           bool want_sum, util::ThreadPool& pool, const char* op) {
  using namespace skip_norm_op;
  const Tensor& x = *in.x;
  int64_t inner = 1;
  for (size_t d = static_cast<size_t>(axis); d < x.rank(); ++d) inner *= x.dim(d);
  if (in.skip) check_skip(x, *in.skip, op);
  const std::pair<const Tensor*, const char*> params[] = {
      {in.gamma, "gamma"}, {in.beta, "beta"}, {in.bias, "bias"}};
  for (const auto& [t, name] : params)
    if (t && t->numel() != inner)
      bad(op, std::string(name) + " of shape " + shape_string(t->shape()) + " does not hold the " +
                  std::to_string(inner) + " elements of a normalized row");
  for (const Tensor* t : {in.skip, in.gamma, in.beta, in.bias})
    if (t && t->type() != x.type()) bad(op, "inputs have different element types");

  NormInputs wide = in;
  Tensor xw = kernels::widen(x), kw, gw = kernels::widen(*in.gamma), bw, cw;
  wide.x = &xw;
  wide.gamma = &gw;
  if (in.skip) wide.skip = &(kw = kernels::widen(*in.skip));
  if (in.beta) wide.beta = &(bw = kernels::widen(*in.beta));
  if (in.bias) wide.bias = &(cw = kernels::widen(*in.bias));
  NormOutputs out = kernels::visit_float(xw.type(), op, [&](auto tag) {
    return normalize<typename decltype(tag)::type>(wide, axis, simplified, epsilon, want_sum, pool);
  });
  out.y = kernels::narrow_to(out.y, x.type());
  if (want_sum) out.sum = kernels::narrow_to(out.sum, x.type());
  return out;
}

void infer_skip_norm(InferContext& ctx, int64_t axis, std::initializer_list<size_t> stats,
                     ElemType stat_type, size_t sum_output) {
  ctx.set_output(0, ctx.input_type(0));
  if (sum_output > 0 && ctx.num_outputs() > sum_output)
    ctx.set_output(sum_output, ctx.input_type(0));
  const ir::Shape& x = ctx.input_shape(0);
  ir::Shape stat_shape = x;
  if (x.rank_known) {
    const auto rank = static_cast<int64_t>(x.dims.size());
    const int64_t a = normalize_axis(ctx, axis, rank, "axis");
    for (int64_t d = a; d < rank; ++d) stat_shape.dims[static_cast<size_t>(d)] = ir::Dim::known(1);
  }
  for (size_t o : stats)
    if (o < ctx.num_outputs()) ctx.set_output_tensor(o, stat_type, stat_shape);
}

}  // namespace bough::ops::microsoft
