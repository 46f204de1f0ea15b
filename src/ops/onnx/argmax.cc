// ArgMax: the index of the largest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

OpDef def_ArgMax() { return arg_reduce_def<true>("ArgMax"); }

}  // namespace bough::ops
