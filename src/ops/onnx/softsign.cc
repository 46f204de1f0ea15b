// Softsign: y = x / (1 + |x|).
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace softsign_op {
struct SoftsignFn {
  static constexpr char kName[] = "Softsign";
  template <typename T>
  T operator()(T v) const {
    return v / (T(1) + std::abs(v));
  }
};
}  // namespace softsign_op
}  // namespace

OpDef def_Softsign() { return float_map_def<softsign_op::SoftsignFn>(kLaterMapRows<1>); }

}  // namespace bough::ops
