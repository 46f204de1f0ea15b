// Atan: arctangent, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AtanFn {
  template <typename T>
  T operator()(T v) const {
    return std::atan(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<AtanFn>(x, pool, "Atan");
}
}  // namespace

const OpDef& def_Atan() {
  static const OpDef def{"", "Atan", {7, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
