// Less: A < B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace less_op {
struct LessFn {
  static constexpr char kName[] = "Less";
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a < b;
  }
};
}  // namespace less_op
}  // namespace

OpDef def_Less() { return compare_def<less_op::LessFn>(kCompareRowsSince1); }

}  // namespace bough::ops
