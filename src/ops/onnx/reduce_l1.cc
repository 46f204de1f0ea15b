// ReduceL1: the sum of absolute values over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
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
}  // namespace

const OpDef& def_ReduceL1() {
  static const OpDef def{
      "",
      "ReduceL1",
      {1, 11, 13, 18},
      1,
      2,
      1,
      1,
      make,
      infer_reduce<18>,
      {{1,
        "data: T -> reduced: T; T = floats int32 int64 uint32 uint64; axes: "
        "ints?, keepdims: int = 1"},
       {11,
        "data: T -> reduced: T; T = floats int32 int64 uint32 uint64; axes: "
        "ints?, keepdims: int = 1"},
       {13,
        "data: T -> reduced: T; T = floats bfloat16 int32 int64 uint32 uint64; "
        "axes: ints?, keepdims: int = 1"},
       {18,
        "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 int32 int64 uint32 "
        "uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"}}};
  return def;
}

}  // namespace bough::ops
