// RMSNormalization: X seen as (outer x inner) at `axis` (default -1); each row is divided by
// its root mean square, y = x / sqrt(mean(x^2) + epsilon) * Scale, Scale broadcasting to X's
// shape from `axis` on. The mean is accumulated in double; float16/bfloat16 go through float.
#include "kernels/layout.h"
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/float_type_attr.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace rms_normalization_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// Scale broadcast (unidirectionally) to `shape`.
template <typename T>
Tensor expand_scale(const Tensor& p, const Dims& shape, util::ThreadPool& pool) {
  if (!kernels::broadcasts_to(p.shape(), shape))
    bad("RMSNormalization's Scale of shape " + shape_string(p.shape()) + " does not broadcast to " +
        shape_string(shape));
  if (p.shape() == shape) return p;
  return kernels::binary_map<T, T, T>(Tensor::zeros(p.type(), shape), p, p.type(), pool,
                                      [](T, T v) { return v; });
}

template <typename T>
Tensor rms_norm(const Tensor& x, const Tensor& scale, int64_t axis, double epsilon,
                util::ThreadPool& pool) {
  Dims norm_shape;
  int64_t outer = 1;
  for (size_t d = 0; d < x.rank(); ++d) {
    if (static_cast<int64_t>(d) >= axis)
      norm_shape.push_back(x.dim(d));
    else
      outer *= x.dim(d);
  }
  const int64_t inner = norm_shape.numel();
  const Tensor s = expand_scale<T>(scale, norm_shape, pool);
  Tensor y(x.type(), x.shape());
  const T* src = x.data<T>();
  const T* ps = s.data<T>();
  T* dst = y.data<T>();
  const int64_t grain = util::grain_for(inner * kernels::kElementWork);
  pool.parallel_for(outer, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t o = lo; o < hi; ++o) {
      const T* xr = src + o * inner;
      T* yr = dst + o * inner;
      const auto k = static_cast<T>(kernels::inverse_rms(xr, inner, epsilon));
      for (int64_t i = 0; i < inner; ++i) yr[i] = xr[i] * k * ps[i];
    }
  });
  return y;
}

class RMSNormalization : public Kernel {
 public:
  RMSNormalization(int64_t axis, double epsilon) : axis_(axis), epsilon_(epsilon) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    if (io.input(1).type() != in.type())
      bad("RMSNormalization inputs have different element types");
    if (in.rank() == 0) bad("RMSNormalization input must have rank >= 1");
    const int64_t axis = kernels::normalize_axis(axis_, static_cast<int64_t>(in.rank()));
    auto normalize = [&](const Tensor& x, const Tensor& scale) {
      return kernels::visit_float(x.type(), "RMSNormalization", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return rms_norm<T>(x, scale, axis, epsilon_, io.pool());
      });
    };
    io.set_output(0, kernels::through_float(normalize, in, io.input(1)));
  }

 private:
  int64_t axis_;
  double epsilon_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  float_type_attr(ctx, "stash_type");  // checked only: statistics are kept in double
  return std::make_unique<RMSNormalization>(ctx.attr_int("axis", -1),
                                            ctx.attr_float("epsilon", 1e-5f));
}

// Y has X's shape and Scale's element type; `axis` must fall within X's rank.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (x.rank_known) {
    if (x.dims.empty()) ctx.invalid("X must have rank 1 or more");
    normalize_axis(ctx, ctx.attr_int("axis", -1), static_cast<int64_t>(x.dims.size()), "axis");
  }
  ctx.set_output_tensor(0, ctx.input_elem(1), x);
}

constexpr SignatureText kRows[] = {
    {23,
     "X: T, scale: V -> Y: V; T = floats bfloat16, V = floats bfloat16; axis: int = -1, "
     "epsilon: float = 9.999999747378752e-06, stash_type: int = 1"}};

}  // namespace rms_normalization_op
}  // namespace

OpDef def_RMSNormalization() {
  using namespace rms_normalization_op;
  return def_from_rows("", "RMSNormalization", make, infer, kRows);
}

}  // namespace bough::ops
