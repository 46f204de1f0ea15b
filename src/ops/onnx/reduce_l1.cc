// ReduceL1: the sum of absolute values over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_l1_op {
template <typename T>
struct L1Reducer : SumReducer<T> {
  T step(T a, T x) const {
    if constexpr (std::is_signed_v<T>)
      return static_cast<T>(a + (x < 0 ? -x : x));
    else
      return static_cast<T>(a + x);
  }
};
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<L1Reducer>(x, plan, "ReduceL1");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace reduce_l1_op
}  // namespace

const OpDef& def_ReduceL1() {
  using namespace reduce_l1_op;
  static const OpDef def = numeric_reduce_def("ReduceL1", make);
  return def;
}

}  // namespace bough::ops
