// Sum: the elementwise sum of one or more inputs, multidirectional broadcasting.
#include "ops/onnx/math_variadic.h"

namespace bough::ops {

namespace {
Tensor compute(KernelIO& io) { return fold_float<SumFn>(io, "Sum"); }
}  // namespace

const OpDef& def_Sum() {
  static const OpDef def{"", "Sum", {1, 6, 8, 13}, 1, kVariadic, 1, 1, make_variadic<compute>};
  return def;
}

}  // namespace bough::ops
