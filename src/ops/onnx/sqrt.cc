// Sqrt: y = sqrt(x), elementwise (NaN for negative x).
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct SqrtFn {
  template <typename T>
  T operator()(T v) const {
    return std::sqrt(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<SqrtFn>(x, pool, "Sqrt");
}
}  // namespace

const OpDef& def_Sqrt() {
  static const OpDef def{"", "Sqrt", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
