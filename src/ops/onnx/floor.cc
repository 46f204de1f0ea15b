// Floor: y = floor(x), elementwise.
#include <cmath>

#include "ops/elementwise.h"

namespace bough::ops {

namespace {
struct FloorFn {
  template <typename T>
  T operator()(T v) const {
    return std::floor(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<FloorFn>(x, out, pool, "Floor");
}
}  // namespace

const OpDef& def_Floor() {
  static const OpDef def{"", "Floor", {1, 6, 13}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
