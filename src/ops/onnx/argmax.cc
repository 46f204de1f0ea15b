// ArgMax: the index of the largest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMax() {
  static const OpDef def = arg_reduce_def<true>("ArgMax");
  return def;
}

}  // namespace bough::ops
