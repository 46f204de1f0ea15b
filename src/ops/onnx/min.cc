// Min: the elementwise minimum of one or more inputs, multidirectional broadcasting.
#include "ops/def_from_rows.h"
#include "ops/onnx/math_variadic.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace min_op {
Tensor compute(KernelIO& io) { return fold_numeric<MinFn>(io, "Min"); }
constexpr SignatureText kRows[] = {{1, "data_0*: T -> min: T; T = floats; consumed_inputs: ints?"},
                                   {6, "data_0*: T -> min: T; T = floats"},
                                   {8, "data_0*: T -> min: T; T = floats"},
                                   {12, "data_0*: T -> min: T; T = numeric"},
                                   {13, "data_0*: T -> min: T; T = numeric bfloat16"}};

}  // namespace min_op
}  // namespace

OpDef def_Min() {
  using namespace min_op;
  return def_from_rows("", "Min", make_variadic<compute>, infer_broadcast, kRows);
}

}  // namespace bough::ops
