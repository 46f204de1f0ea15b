// Exp: y = e^x, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct ExpFn {
  template <typename T>
  T operator()(T v) const {
    return std::exp(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<ExpFn>(x, out, pool, "Exp");
}
}  // namespace

const OpDef& def_Exp() {
  static const OpDef def{"", "Exp", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
