// Asinh: inverse hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AsinhFn {
  template <typename T>
  T operator()(T v) const {
    return std::asinh(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<AsinhFn>(x, pool, "Asinh");
}
}  // namespace

const OpDef& def_Asinh() {
  static const OpDef def{"", "Asinh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
