// Atanh: inverse hyperbolic tangent, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace atanh_op {
struct AtanhFn {
  static constexpr char kName[] = "Atanh";
  template <typename T>
  T operator()(T v) const {
    return std::atanh(v);
  }
};
}  // namespace atanh_op
}  // namespace

OpDef def_Atanh() { return float_map_def<atanh_op::AtanhFn>(kLaterMapRows<9>); }

}  // namespace bough::ops
