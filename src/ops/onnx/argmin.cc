// ArgMin: the index of the smallest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

OpDef def_ArgMin() { return arg_reduce_def<false>("ArgMin"); }

}  // namespace bough::ops
