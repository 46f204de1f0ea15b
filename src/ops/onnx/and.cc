// And: logical and of two bool tensors, multidirectional broadcasting (legacy broadcast/axis
// before opset 7).
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace and_op {
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  if (a.type() != ElemType::Bool) kernels::unsupported_type(a.type(), "And");
  if (b.type() != ElemType::Bool) kernels::unsupported_type(b.type(), "And");
  kernels::binary_map_into<bool, bool, bool>(a, b, out, ElemType::Bool, pool,
                                             [](bool x, bool y) { return x && y; });
}
}  // namespace and_op
}  // namespace

const OpDef& def_And() {
  using namespace and_op;
  static const OpDef def{
      "",
      "And",
      {1, 7},
      2,
      2,
      1,
      1,
      make_binary<compute>,
      infer_broadcast_bool,
      {{1, "A: T, B: T -> C: T1; T = bool, T1 = bool; axis: int?, broadcast: int = 0"},
       {7, "A: T, B: T -> C: T1; T = bool, T1 = bool"}}};
  return def;
}

}  // namespace bough::ops
