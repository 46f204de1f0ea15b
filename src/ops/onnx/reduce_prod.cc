// ReduceProd: the product over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_prod_op {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<ProdReducer>(x, plan, "ReduceProd");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_prod_op
}  // namespace

const OpDef& def_ReduceProd() {
  using namespace reduce_prod_op;
  static const OpDef def = numeric_reduce_def("ReduceProd", make);
  return def;
}

}  // namespace bough::ops
