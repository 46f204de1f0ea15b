// Softplus: y = ln(exp(x) + 1), computed without overflow for large x.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace softplus_op {
struct SoftplusFn {
  template <typename T>
  T operator()(T v) const {
    return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SoftplusFn>(x, out, pool, "Softplus");
}
}  // namespace softplus_op
}  // namespace

const OpDef& def_Softplus() {
  using namespace softplus_op;
  static const OpDef def{
      "",
      "Softplus",
      {1, 22},
      1,
      1,
      1,
      1,
      make_unary<compute>,
      infer_same_as_first,
      {{1, "X: T -> Y: T; T = floats"}, {22, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
