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
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AcoshFn>(x, out, pool, "Acosh");
}
}  // namespace

const OpDef& def_Acosh() {
  static const OpDef def{"", "Acosh", {9, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
