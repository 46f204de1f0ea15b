// HardSwish: y = x * max(0, min(1, x / 6 + 0.5)).
#include <algorithm>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace hard_swish_op {
struct HardSwishFn {
  template <typename T>
  T operator()(T v) const {
    return v * std::clamp(v / T(6) + T(0.5), T(0), T(1));
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<HardSwishFn>(x, out, pool, "HardSwish");
}
}  // namespace hard_swish_op
}  // namespace

const OpDef& def_HardSwish() {
  using namespace hard_swish_op;
  static const OpDef def{
      "",
      "HardSwish",
      {14, 22},
      1,
      1,
      1,
      1,
      make_unary<compute>,
      infer_same_as_first,
      {{14, "X: T -> Y: T; T = floats"}, {22, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
