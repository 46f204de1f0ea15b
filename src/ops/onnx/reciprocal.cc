// Reciprocal: y = 1 / x, elementwise.
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct ReciprocalFn {
  template <typename T>
  T operator()(T v) const {
    return T(1) / v;
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<ReciprocalFn>(x, pool, "Reciprocal");
}
}  // namespace

const OpDef& def_Reciprocal() {
  static const OpDef def{"", "Reciprocal", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
