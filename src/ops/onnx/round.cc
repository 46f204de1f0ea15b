// Round: to the nearest integer, halves to even (nearbyint in the default rounding mode).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace round_op {
struct RoundFn {
  template <typename T>
  T operator()(T v) const {
    return std::nearbyint(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<RoundFn>(x, out, pool, "Round");
}
}  // namespace round_op
}  // namespace

const OpDef& def_Round() {
  using namespace round_op;
  static const OpDef def{
      "",
      "Round",
      {11, 22},
      1,
      1,
      1,
      1,
      make_unary<compute>,
      infer_same_as_first,
      {{11, "X: T -> Y: T; T = floats"}, {22, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
