// ReduceMin: the minimum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_min_op {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<MinReducer, kernels::Types::NumericBool>(x, plan, "ReduceMin");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_min_op
}  // namespace

const OpDef& def_ReduceMin() {
  using namespace reduce_min_op;
  static const OpDef def = extreme_reduce_def("ReduceMin", make);
  return def;
}

}  // namespace bough::ops
