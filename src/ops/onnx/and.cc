// And: logical and of two bool tensors, multidirectional broadcasting (legacy broadcast/axis
// before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace and_op {
struct AndFn {
  static constexpr char kName[] = "And";
  bool operator()(bool a, bool b) const { return a && b; }
};
}  // namespace and_op
}  // namespace

OpDef def_And() { return logical_def<and_op::AndFn>(); }

}  // namespace bough::ops
