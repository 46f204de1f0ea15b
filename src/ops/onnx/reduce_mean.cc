// ReduceMean: the mean (NaN for an empty set) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_mean_op {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<MeanReducer>(x, plan, "ReduceMean");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_mean_op
}  // namespace

const OpDef& def_ReduceMean() {
  using namespace reduce_mean_op;
  static const OpDef def = numeric_reduce_def("ReduceMean", make);
  return def;
}

}  // namespace bough::ops
