// ReduceSum: the sum over the given axes (see ops/onnx/reduce_op.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

namespace {
namespace reduce_sum_op {
constexpr SignatureText kRows[] = {
    {1,
     "data: T -> reduced: T; T = floats int32 int64 uint32 uint64; axes: ints?, keepdims: int = "
     "1"},
    {11,
     "data: T -> reduced: T; T = floats int32 int64 uint32 uint64; axes: ints?, keepdims: int = "
     "1"},
    {13,
     "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 int32 int64 uint32 "
     "uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"}};

}  // namespace reduce_sum_op
}  // namespace

OpDef def_ReduceSum() {
  using namespace reduce_sum_op;
  return def_from_rows("", "ReduceSum", make_reduce<SumReducer, kernels::Types::Numeric, 13>,
                       infer_reduce<13>, kRows);
}

}  // namespace bough::ops
