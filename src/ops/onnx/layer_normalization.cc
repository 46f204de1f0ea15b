// LayerNormalization: X seen as (outer x inner) at `axis` (default -1); each row is
// normalized by its own mean and (biased) variance, then y = (x - mean) * inv_std * Scale + B,
// Scale and B broadcasting to X's shape from `axis` on. The optional Mean and InvStdDev
// outputs keep X's leading dimensions (the rest 1) in the stash_type (default float).
// float16/bfloat16 go through float.
#include "kernels/layout.h"
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/float_type_attr.h"
#include "ops/layer_norm_attrs.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace layer_normalization_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// p broadcast (unidirectionally) to `shape`, in T.
template <typename T>
Tensor expand_param(const Tensor& p, const Dims& shape, util::ThreadPool& pool, const char* name) {
  if (!kernels::broadcasts_to(p.shape(), shape))
    bad(std::string("LayerNormalization's ") + name + " of shape " + shape_string(p.shape()) +
        " does not broadcast to " + shape_string(shape));
  if (p.shape() == shape) return p;
  return kernels::binary_map<T, T, T>(Tensor::zeros(p.type(), shape), p, p.type(), pool,
                                      [](T, T v) { return v; });
}

struct Result {
  Tensor y, mean, inv_std;
};

template <typename T>
Result layer_norm(const Tensor& x, const Tensor& scale, const Tensor* bias, int64_t axis,
                  double epsilon, util::ThreadPool& pool) {
  Dims norm_shape, stat_shape;
  for (size_t d = 0; d < x.rank(); ++d) {
    if (static_cast<int64_t>(d) >= axis) norm_shape.push_back(x.dim(d));
    stat_shape.push_back(static_cast<int64_t>(d) < axis ? x.dim(d) : 1);
  }
  const int64_t inner = norm_shape.numel(), outer = stat_shape.numel();
  const Tensor s = expand_param<T>(scale, norm_shape, pool, "Scale");
  const Tensor b = bias ? expand_param<T>(*bias, norm_shape, pool, "B") : Tensor();
  const T* src = x.data<T>();
  const kernels::Moments m = kernels::pool_moments(src, outer, inner, epsilon, pool);
  Result r{Tensor(x.type(), x.shape()), Tensor(ElemType::Double, stat_shape),
           Tensor(ElemType::Double, stat_shape)};
  T* dst = r.y.data<T>();
  const T* ps = s.data<T>();
  const T* pb = bias ? b.data<T>() : nullptr;
  const int64_t grain = util::grain_for(inner * kernels::kElementWork);
  pool.parallel_for(outer, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t o = lo; o < hi; ++o) {
      const T mean = static_cast<T>(m.mean[o]), k = static_cast<T>(m.inv_std[o]);
      const T* xr = src + o * inner;
      T* yr = dst + o * inner;
      for (int64_t i = 0; i < inner; ++i) yr[i] = (xr[i] - mean) * k * ps[i] + (pb ? pb[i] : T(0));
    }
  });
  std::copy(m.mean.begin(), m.mean.end(), r.mean.data<double>());
  std::copy(m.inv_std.begin(), m.inv_std.end(), r.inv_std.data<double>());
  return r;
}

class LayerNormalization : public Kernel {
 public:
  explicit LayerNormalization(LayerNormAttrs attrs) : attrs_(attrs) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor* bias = io.has_input(2) ? &io.input(2) : nullptr;
    if (io.input(1).type() != in.type() || (bias && bias->type() != in.type()))
      bad("LayerNormalization inputs have different element types");
    const int64_t axis = kernels::normalize_axis(attrs_.axis, static_cast<int64_t>(in.rank()));
    Result r;
    auto normalize = [&](const Tensor& x, const Tensor& scale, const Tensor* bias) {
      r = kernels::visit_float(x.type(), "LayerNormalization", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return layer_norm<T>(x, scale, bias, axis, attrs_.epsilon, io.pool());
      });
      return r.y;
    };
    io.set_output(0, kernels::through_float(normalize, in, io.input(1), bias));
    io.set_output(1, kernels::cast(r.mean, attrs_.stash));
    io.set_output(2, kernels::cast(r.inv_std, attrs_.stash));
  }

 private:
  LayerNormAttrs attrs_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<LayerNormalization>(LayerNormAttrs::read(ctx));
}

// Y has X's type; Mean and InvStdDev keep X's dims before `axis` and 1 from there, in the
// type stash_type names.
void infer(InferContext& ctx) {
  ctx.set_output(0, ctx.input_type(0));
  if (ctx.num_outputs() < 2) return;
  const ir::Shape& x = ctx.input_shape(0);
  ir::Shape stats = x;
  if (x.rank_known) {
    const auto rank = static_cast<int64_t>(x.dims.size());
    const int64_t axis = normalize_axis(ctx, ctx.attr_int("axis", -1), rank, "axis");
    for (int64_t d = axis; d < rank; ++d) stats.dims[static_cast<size_t>(d)] = ir::Dim::known(1);
  }
  const ElemType stash = float_type_attr(ctx, "stash_type");
  for (size_t o = 1; o < ctx.num_outputs(); ++o) ctx.set_output_tensor(o, stash, stats);
}

constexpr SignatureText kRows[] = {
    {17,
     "X: T, Scale: T, B?: T -> Y: T, Mean?: U, InvStdDev?: U; T = floats bfloat16, U = float "
     "bfloat16; axis: int = -1, epsilon: float = 9.999999747378752e-06, stash_type: int = 1"}};

}  // namespace layer_normalization_op
}  // namespace

OpDef def_LayerNormalization() {
  using namespace layer_normalization_op;
  return def_from_rows("", "LayerNormalization", make, infer, kRows);
}

}  // namespace bough::ops
