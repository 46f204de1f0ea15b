// LessOrEqual: A <= B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace less_or_equal_op {
struct LessOrEqualFn {
  static constexpr char kName[] = "LessOrEqual";
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a <= b;
  }
};
}  // namespace less_or_equal_op
}  // namespace

OpDef def_LessOrEqual() {
  return compare_def<less_or_equal_op::LessOrEqualFn>(kCompareRowsSince12);
}

}  // namespace bough::ops
