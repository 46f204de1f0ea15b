// Atanh: inverse hyperbolic tangent, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AtanhFn {
  template <typename T>
  T operator()(T v) const {
    return std::atanh(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<AtanhFn>(x, pool, "Atanh");
}
}  // namespace

const OpDef& def_Atanh() {
  static const OpDef def{"", "Atanh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
