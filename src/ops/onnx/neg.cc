// Neg: y = -x, elementwise.
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct NegFn {
  template <typename T>
  T operator()(T v) const {
    return -v;
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<NegFn>(x, out, pool, "Neg");
}
}  // namespace

const OpDef& def_Neg() {
  static const OpDef def{"", "Neg", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
