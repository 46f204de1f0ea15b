// Asinh: inverse hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace asinh_op {
struct AsinhFn {
  static constexpr char kName[] = "Asinh";
  template <typename T>
  T operator()(T v) const {
    return std::asinh(v);
  }
};
}  // namespace asinh_op
}  // namespace

OpDef def_Asinh() { return float_map_def<asinh_op::AsinhFn>(kLaterMapRows<9>); }

}  // namespace bough::ops
