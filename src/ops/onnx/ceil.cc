// Ceil: y = ceil(x), elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct CeilFn {
  template <typename T>
  T operator()(T v) const {
    return std::ceil(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<CeilFn>(x, out, pool, "Ceil");
}
}  // namespace

const OpDef& def_Ceil() {
  static const OpDef def{"", "Ceil", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
