#include "ops/onnx/arith_def.h"

#include "ops/def_from_rows.h"
#include "ops/shape_infer.h"

namespace bough::ops {

constexpr SignatureText kArithRows[] = {
    {1,
     "A: T, B: T -> C: T; T = floats; axis: int?, broadcast: int = 0, consumed_inputs: "
     "ints?"},
    {6,
     "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64; axis: int?, broadcast: "
     "int = 0"},
    {7, "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64"},
    {13, "A: T, B: T -> C: T; T = floats bfloat16 int32 int64 uint32 uint64"},
    {14, "A: T, B: T -> C: T; T = numeric bfloat16"}};

OpDef arith_def(std::string_view name, KernelFactory make) {
  return def_from_rows("", name, make, infer_broadcast, kArithRows);
}

}  // namespace bough::ops
