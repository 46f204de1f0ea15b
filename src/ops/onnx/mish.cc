// Mish: y = x * tanh(softplus(x)), softplus(x) = ln(1 + exp(x)).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mish_op {
struct MishFn {
  template <typename T>
  T operator()(T v) const {
    const T softplus = v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
    return v * std::tanh(softplus);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<MishFn>(x, out, pool, "Mish");
}
}  // namespace mish_op
}  // namespace

const OpDef& def_Mish() {
  using namespace mish_op;
  static const OpDef def{
      "",
      "Mish",
      {18, 22},
      1,
      1,
      1,
      1,
      make_unary<compute>,
      infer_same_as_first,
      {{18, "X: T -> Y: T; T = floats"}, {22, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
