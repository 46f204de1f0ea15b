// Min: the elementwise minimum of one or more inputs, multidirectional broadcasting.
#include "ops/onnx/math_variadic.h"

namespace bough::ops {

namespace {
Tensor compute(KernelIO& io) { return fold_numeric<MinFn>(io, "Min"); }
}  // namespace

const OpDef& def_Min() {
  static const OpDef def{"", "Min", {1, 6, 8, 12, 13}, 1, kVariadic, 1, 1, make_variadic<compute>};
  return def;
}

}  // namespace bough::ops
