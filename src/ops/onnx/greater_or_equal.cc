// GreaterOrEqual: A >= B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace greater_or_equal_op {
struct GreaterOrEqualFn {
  static constexpr char kName[] = "GreaterOrEqual";
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a >= b;
  }
};
}  // namespace greater_or_equal_op
}  // namespace

OpDef def_GreaterOrEqual() {
  return compare_def<greater_or_equal_op::GreaterOrEqualFn>(kCompareRowsSince12);
}

}  // namespace bough::ops
