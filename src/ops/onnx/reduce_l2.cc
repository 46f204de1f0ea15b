// ReduceL2: the square root of the sum of squares over the given axes (see
// ops/onnx/reduce_op.h); integer results are the root truncated.
#include "ops/onnx/reduce_op.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
template <typename T>
struct L2Reducer : SumReducer<T> {
  T step(T a, T x) const { return static_cast<T>(a + x * x); }
  T finish(T a, int64_t) const { return util::from_double<T>(std::sqrt(static_cast<double>(a))); }
};
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<L2Reducer>(x, plan, "ReduceL2");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace

const OpDef& def_ReduceL2() {
  static const OpDef def{
      "",
      "ReduceL2",
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
