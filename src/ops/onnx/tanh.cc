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
    if constexpr (std::is_same_v<T, float>)
      return kernels::fast_tanh(v);
    else
      return std::tanh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<TanhFn>(x, out, pool, "Tanh");
}
}  // namespace

const OpDef& def_Tanh() {
  static const OpDef def{"", "Tanh", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
