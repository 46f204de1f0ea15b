// Acosh: inverse hyperbolic cosine, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AcoshFn {
  template <typename T>
  T operator()(T v) const {
    return std::acosh(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<AcoshFn>(x, pool, "Acosh");
}
}  // namespace

const OpDef& def_Acosh() {
  static const OpDef def{"", "Acosh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
