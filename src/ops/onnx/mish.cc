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
}  // namespace mish_op
}  // namespace

OpDef def_Mish() { return float_map_def<mish_op::MishFn>(kLaterMapRowsXY<18>); }

}  // namespace bough::ops
