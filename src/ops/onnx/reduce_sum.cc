// ReduceSum: the sum over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<SumReducer>(x, plan, "ReduceSum");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 13); }
}  // namespace

const OpDef& def_ReduceSum() {
  static const OpDef def{"", "ReduceSum", {1, 11, 13}, 1, 2, 1, 1, make};
  return def;
}

}  // namespace bough::ops
