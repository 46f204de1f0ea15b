// Or: logical or of two bool tensors, multidirectional broadcasting (legacy broadcast/axis
// before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace or_op {
struct OrFn {
  static constexpr char kName[] = "Or";
  bool operator()(bool a, bool b) const { return a || b; }
};
}  // namespace or_op
}  // namespace

OpDef def_Or() { return logical_def<or_op::OrFn>(); }

}  // namespace bough::ops
