// ReduceMax: the maximum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_max_op {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<MaxReducer, kernels::Types::NumericBool>(x, plan, "ReduceMax");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_max_op
}  // namespace

const OpDef& def_ReduceMax() {
  using namespace reduce_max_op;
  static const OpDef def = extreme_reduce_def("ReduceMax", make);
  return def;
}

}  // namespace bough::ops
