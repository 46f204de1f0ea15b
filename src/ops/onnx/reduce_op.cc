// The schema rows the reductions share (see reduce_op.h).
#include "ops/onnx/reduce_op.h"

#include "ops/def_from_rows.h"

namespace bough::ops {

namespace {
namespace reduce_op_op {
// Versions 1 and 11 of every reduction defined here: axes an attribute, no 8-bit types.
constexpr std::string_view kBeforeOpset12Row =
    "data: T -> reduced: T; T = floats int32 int64 uint32 uint64; axes: ints?, keepdims: int = 1";
constexpr SignatureText kNumericReduceRows[] = {
    {1, kBeforeOpset12Row},
    {11, kBeforeOpset12Row},
    {13,
     "data: T -> reduced: T; T = floats bfloat16 int32 int64 uint32 uint64; axes: "
     "ints?, keepdims: int = 1"},
    {18,
     "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 int32 int64 "
     "uint32 uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"}};

constexpr SignatureText kExtremeReduceRows[] = {
    {1, kBeforeOpset12Row},
    {11, kBeforeOpset12Row},
    {12,
     "data: T -> reduced: T; T = floats int8 int32 int64 uint8 uint32 uint64; axes: "
     "ints?, keepdims: int = 1"},
    {13,
     "data: T -> reduced: T; T = floats bfloat16 int8 int32 int64 uint8 uint32 uint64; "
     "axes: ints?, keepdims: int = 1"},
    {18,
     "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 int8 int32 int64 "
     "uint8 uint32 uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"},
    {20,
     "data: T, axes?: tensor(int64) -> reduced: T; T = floats bfloat16 bool int8 int32 "
     "int64 uint8 uint32 uint64; keepdims: int = 1, noop_with_empty_axes: int = 0"}};

}  // namespace reduce_op_op
}  // namespace

OpDef numeric_reduce_def(std::string_view name, KernelFactory make) {
  using namespace reduce_op_op;
  return def_from_rows("", name, make, infer_reduce<18>, kNumericReduceRows);
}

OpDef extreme_reduce_def(std::string_view name, KernelFactory make) {
  using namespace reduce_op_op;
  return def_from_rows("", name, make, infer_reduce<18>, kExtremeReduceRows);
}

}  // namespace bough::ops
