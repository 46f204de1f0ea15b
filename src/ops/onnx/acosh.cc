// Acosh: inverse hyperbolic cosine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace acosh_op {
struct AcoshFn {
  static constexpr char kName[] = "Acosh";
  template <typename T>
  T operator()(T v) const {
    return std::acosh(v);
  }
};
}  // namespace acosh_op
}  // namespace

OpDef def_Acosh() { return float_map_def<acosh_op::AcoshFn>(kLaterMapRows<9>); }

}  // namespace bough::ops
