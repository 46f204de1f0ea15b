// ArgMin: the index of the smallest element along an axis (see ops/onnx/arg_reduce.h).
#include "ops/onnx/arg_reduce.h"

namespace bough::ops {

const OpDef& def_ArgMin() {
  static const OpDef def = arg_reduce_def<false>("ArgMin");
  return def;
}

}  // namespace bough::ops
