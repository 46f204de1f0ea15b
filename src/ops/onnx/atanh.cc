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

const OpDef& def_Atanh() {
  static const OpDef def = float_map_def<atanh_op::AtanhFn>(kLaterMapRows<9>);
  return def;
}

}  // namespace bough::ops
