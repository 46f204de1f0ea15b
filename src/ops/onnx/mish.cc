// Mish: y = x * tanh(softplus(x)), softplus(x) = ln(1 + exp(x)).
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace mish_op {
struct MishFn {
  static constexpr char kName[] = "Mish";
  template <typename T>
  T operator()(T v) const {
    const T softplus = v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
    return v * std::tanh(softplus);
  }
};
constexpr SignatureText kRows[] = {{18, "X: T -> Y: T; T = floats"},
                                   {22, "X: T -> Y: T; T = floats bfloat16"}};
}  // namespace mish_op
}  // namespace

const OpDef& def_Mish() {
  static const OpDef def = float_map_def<mish_op::MishFn>(mish_op::kRows);
  return def;
}

}  // namespace bough::ops
