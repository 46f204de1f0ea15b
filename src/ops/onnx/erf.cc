// Erf: the error function, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct ErfFn {
  template <typename T>
  T operator()(T v) const {
    return std::erf(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<ErfFn>(x, out, pool, "Erf");
}
}  // namespace

const OpDef& def_Erf() {
  static const OpDef def{"", "Erf", {9, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
