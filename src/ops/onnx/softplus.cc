// Softplus: y = ln(exp(x) + 1), computed without overflow for large x.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace softplus_op {
struct SoftplusFn {
  static constexpr char kName[] = "Softplus";
  template <typename T>
  T operator()(T v) const {
    return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v));
  }
};
}  // namespace softplus_op
}  // namespace

OpDef def_Softplus() { return float_map_def<softplus_op::SoftplusFn>(kLaterMapRowsXY<1>); }

}  // namespace bough::ops
