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

const OpDef& def_And() {
  static const OpDef def = logical_def<and_op::AndFn>();
  return def;
}

}  // namespace bough::ops
