// Greater: A > B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace greater_op {
struct GreaterFn {
  static constexpr char kName[] = "Greater";
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a > b;
  }
};
}  // namespace greater_op
}  // namespace

OpDef def_Greater() { return compare_def<greater_op::GreaterFn>(kCompareRowsSince1); }

}  // namespace bough::ops
