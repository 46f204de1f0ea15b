// Sin: sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct SinFn {
  template <typename T>
  T operator()(T v) const {
    return std::sin(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<SinFn>(x, pool, "Sin");
}
}  // namespace

const OpDef& def_Sin() {
  static const OpDef def{"", "Sin", {7, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
