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
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AtanhFn>(x, out, pool, "Atanh");
}
}  // namespace

const OpDef& def_Atanh() {
  static const OpDef def{"", "Atanh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
