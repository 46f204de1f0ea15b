// ReduceLogSum: the natural log of the sum over the given axes (see ops/onnx/reduce_op.h);
// an empty set gives -inf.
#include "ops/onnx/reduce_op.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
template <typename T>
struct LogSumReducer : SumReducer<T> {
  T finish(T a, int64_t) const { return util::from_double<T>(std::log(static_cast<double>(a))); }
};
Tensor compute(const Tensor& x, const kernels::ReducePlan& plan) {
  return reduce_tensor<LogSumReducer>(x, plan, "ReduceLogSum");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_reduce(ctx, compute, 18); }
}  // namespace

const OpDef& def_ReduceLogSum() {
  static const OpDef def{
      "",
      "ReduceLogSum",
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
