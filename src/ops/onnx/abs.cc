// Abs: y = |x|, elementwise, for every numeric type (unsigned values pass through).
#include <cmath>
#include <type_traits>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AbsFn {
  template <typename T>
  T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>)
      return std::fabs(v);
    else if constexpr (std::is_unsigned_v<T>)
      return v;
    else
      return static_cast<T>(v < 0 ? -v : v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<AbsFn>(x, out, pool, "Abs");
}
}  // namespace

const OpDef& def_Abs() {
  static const OpDef def{"", "Abs", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
