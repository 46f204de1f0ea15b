// ReduceMin: the minimum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<MinReducer, kernels::Types::NumericBool>(x, plan, "ReduceMin");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace

const OpDef& def_ReduceMin() {
  static const OpDef def{
      "",
      "ReduceMin",
      {1, 11, 12, 13, 18, 20},
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
       {12,
        "data: T -> reduced: T; T = floats int8 int32 int64 uint8 uint32 "
        "uint64; axes: ints?, keepdims: int = 1"},
       {13,
        "data: T -> reduced: T; T = floats bfloat16 int8 int32 int64 uint8 "
        "uint32 uint64; axes: ints?, keepdims: int = 1"},
       {18,
        "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 int8 int32 int64 uint8 "
        "uint32 uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"},
       {20,
        "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 bool int8 int32 int64 "
        "uint8 uint32 uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"}}};
  return def;
}

}  // namespace bough::ops
