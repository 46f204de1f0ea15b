// Sinh: hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct SinhFn {
  template <typename T>
  T operator()(T v) const {
    return std::sinh(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<SinhFn>(x, pool, "Sinh");
}
}  // namespace

const OpDef& def_Sinh() {
  static const OpDef def{"", "Sinh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
