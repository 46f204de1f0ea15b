// Max: the elementwise maximum of one or more inputs, multidirectional broadcasting.
#include "ops/def_from_rows.h"
#include "ops/onnx/math_variadic.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace max_op {
Tensor compute(KernelIO& io) { return fold_numeric<MaxFn>(io, "Max"); }
constexpr SignatureText kRows[] = {{1, "data_0*: T -> max: T; T = floats; consumed_inputs: ints?"},
                                   {6, "data_0*: T -> max: T; T = floats"},
                                   {8, "data_0*: T -> max: T; T = floats"},
                                   {12, "data_0*: T -> max: T; T = numeric"},
                                   {13, "data_0*: T -> max: T; T = numeric bfloat16"}};

}  // namespace max_op
}  // namespace

OpDef def_Max() {
  using namespace max_op;
  return def_from_rows("", "Max", make_variadic<compute>, infer_broadcast, kRows);
}

}  // namespace bough::ops
