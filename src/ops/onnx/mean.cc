// Mean: the elementwise mean of one or more inputs, multidirectional broadcasting.
#include "ops/def_from_rows.h"
#include "ops/onnx/math_variadic.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace mean_op {
Tensor compute(KernelIO& io) {
  Tensor sum = fold_float<SumFn>(io, "Mean");
  if (io.num_inputs() == 1) return sum;
  const double n = static_cast<double>(io.num_inputs());
  return float_map(sum, io.pool(), "Mean", [n](auto v) { return v / static_cast<decltype(v)>(n); });
}
constexpr SignatureText kRows[] = {{1, "data_0*: T -> mean: T; T = floats; consumed_inputs: ints?"},
                                   {6, "data_0*: T -> mean: T; T = floats"},
                                   {8, "data_0*: T -> mean: T; T = floats"},
                                   {13, "data_0*: T -> mean: T; T = floats bfloat16"}};

}  // namespace mean_op
}  // namespace

OpDef def_Mean() {
  using namespace mean_op;
  return def_from_rows("", "Mean", make_variadic<compute>, infer_broadcast, kRows);
}

}  // namespace bough::ops
