// GlobalLpPool: the p-norm (sum |x|^p)^(1/p) of each (batch, channel) plane of X
// (N x C x D1..Dn). p is a float attribute in opset 1 and an int from opset 2 (default 2).
// float16/bfloat16 go through float.
#include <cmath>
#include <type_traits>

#include "kernels/pool_global.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace global_lp_pool_op {

class GlobalLpPool : public Kernel {
 public:
  explicit GlobalLpPool(double p) : p_(p) {}

  void run(KernelIO& io) override { io.set_output(0, compute(io.input(0), io.pool())); }

 private:
  Tensor compute(const Tensor& x, util::ThreadPool& pool) const {
    const double p = p_;
    return kernels::global_pool_float(x, pool, "GlobalLpPool", [p](const auto* v, int64_t n) {
      using T = std::remove_cvref_t<decltype(*v)>;
      T sum = 0;
      for (int64_t i = 0; i < n; ++i) sum += static_cast<T>(std::pow(std::abs(v[i]), p));
      return static_cast<T>(std::pow(sum, 1.0 / p));
    });
  }

  double p_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Attribute* a = ctx.attr("p");
  const double p = !a ? 2.0 : (a->kind == ir::Attribute::Kind::Float ? a->f : double(a->i));
  if (!(p > 0)) ctx.invalid("GlobalLpPool's p must be positive");
  return std::make_unique<GlobalLpPool>(p);
}

constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats; p: float = 2.0"},
                                   {2, "X: T -> Y: T; T = floats; p: int = 2"},
                                   {22, "X: T -> Y: T; T = floats bfloat16; p: int = 2"}};

}  // namespace global_lp_pool_op
}  // namespace

OpDef def_GlobalLpPool() {
  using namespace global_lp_pool_op;
  return def_from_rows("", "GlobalLpPool", make, infer_global_pool, kRows);
}

}  // namespace bough::ops
