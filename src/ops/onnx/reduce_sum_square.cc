// ReduceSumSquare: the sum of squares over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_sum_square_op {
template <typename T>
struct SumSquareReducer : SumReducer<T> {
  T step(T a, T x) const { return static_cast<T>(a + x * x); }
};
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<SumSquareReducer>(x, plan, "ReduceSumSquare");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_sum_square_op
}  // namespace

const OpDef& def_ReduceSumSquare() {
  using namespace reduce_sum_square_op;
  static const OpDef def = numeric_reduce_def("ReduceSumSquare", make);
  return def;
}

}  // namespace bough::ops
