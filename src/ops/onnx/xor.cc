// Xor: logical exclusive or of two bool tensors, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace xor_op {
struct XorFn {
  static constexpr char kName[] = "Xor";
  bool operator()(bool a, bool b) const { return a != b; }
};
}  // namespace xor_op
}  // namespace

OpDef def_Xor() { return logical_def<xor_op::XorFn>(); }

}  // namespace bough::ops
