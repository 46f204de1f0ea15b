// Tanh: hyperbolic tangent, elementwise.
#include <cmath>
#include <type_traits>

#include "kernels/fast_math.h"
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct TanhFn {
  template <typename T>
  T operator()(T v) const {
    if constexpr (std::is_same_v<T, float>) return kernels::fast_tanh(v);
    else return std::tanh(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<TanhFn>(x, pool, "Tanh");
}
}  // namespace

const OpDef& def_Tanh() {
  static const OpDef def{"", "Tanh", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
