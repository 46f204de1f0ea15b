// Sum: the elementwise sum of one or more inputs, multidirectional broadcasting.
#include "ops/def_from_rows.h"
#include "ops/onnx/math_variadic.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sum_op {
Tensor compute(KernelIO& io) { return fold_float<SumFn>(io, "Sum"); }
constexpr SignatureText kRows[] = {{1, "data_0*: T -> sum: T; T = floats; consumed_inputs: ints?"},
                                   {6, "data_0*: T -> sum: T; T = floats"},
                                   {8, "data_0*: T -> sum: T; T = floats"},
                                   {13, "data_0*: T -> sum: T; T = floats bfloat16"}};

}  // namespace sum_op
}  // namespace

OpDef def_Sum() {
  using namespace sum_op;
  return def_from_rows("", "Sum", make_variadic<compute>, infer_broadcast, kRows);
}

}  // namespace bough::ops
