// MeanVarianceNormalization: (x - mean) / (sqrt(variance) + 1e-9), the mean and variance
// taken over `axes` (default [0, 2, 3]).
#include <cmath>
#include <vector>

#include "kernels/layout.h"
#include "kernels/reduce_loop.h"
#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mean_variance_normalization_op {
template <typename T>
struct MeanOf {
  using Acc = double;
  double init() const { return 0; }
  double step(double a, T x) const { return a + x; }
  double merge(double a, double b) const { return a + b; }
  T finish(double a, int64_t n) const { return static_cast<T>(n ? a / static_cast<double>(n) : 0); }
};

class MeanVarianceNormalization : public Kernel {
 public:
  explicit MeanVarianceNormalization(std::vector<int64_t> axes) : axes_(std::move(axes)) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const auto rank = static_cast<int64_t>(in.rank());
    const std::vector<int64_t> axes = kernels::normalize_axes(axes_, rank);
    const kernels::ReducePlan plan = kernels::plan_reduce(in.shape(), axes, true);
    auto normalize = [&](const Tensor& x) {
      return kernels::visit_float(x.type(), "MeanVarianceNormalization", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor mean(x.type(), plan.out_shape), var(x.type(), plan.out_shape);
        kernels::reduce(plan, x.data<T>(), mean.data<T>(), MeanOf<T>{});
        const Tensor diff = kernels::binary_map<T, T, T>(x, mean, x.type(), io.pool(),
                                                         [](T a, T m) { return a - m; });
        const Tensor sq =
            kernels::unary_map<T, T>(diff, x.type(), io.pool(), [](T d) { return d * d; });
        kernels::reduce(plan, sq.data<T>(), var.data<T>(), MeanOf<T>{});
        return kernels::binary_map<T, T, T>(diff, var, x.type(), io.pool(), [](T d, T v) {
          return static_cast<T>(d / (std::sqrt(v) + T(1e-9)));
        });
      });
    };
    io.set_output(0, kernels::through_float(normalize, in));
  }

 private:
  std::vector<int64_t> axes_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::vector<int64_t> axes =
      ctx.has_attr("axes") ? ctx.attr_ints("axes") : std::vector<int64_t>{0, 2, 3};
  return std::make_unique<MeanVarianceNormalization>(std::move(axes));
}
constexpr SignatureText kRows[] = {{9, "X: T -> Y: T; T = floats; axes: ints = 0 2 3"},
                                   {13, "X: T -> Y: T; T = floats bfloat16; axes: ints = 0 2 3"}};

}  // namespace mean_variance_normalization_op
}  // namespace

OpDef def_MeanVarianceNormalization() {
  using namespace mean_variance_normalization_op;
  return def_from_rows("", "MeanVarianceNormalization", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
