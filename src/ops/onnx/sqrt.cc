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
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SqrtFn>(x, out, pool, "Sqrt");
}
}  // namespace

const OpDef& def_Sqrt() {
  static const OpDef def{"", "Sqrt", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
