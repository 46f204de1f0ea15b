// Asin: arcsine, elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct AsinFn {
  template <typename T>
  T operator()(T v) const {
    return std::asin(v);
  }
};
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  return float_unary<AsinFn>(x, pool, "Asin");
}
}  // namespace

const OpDef& def_Asin() {
  static const OpDef def{"", "Asin", {7, 22}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
