// ReduceMin: the minimum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

const OpDef& def_ReduceMin() {
  static const OpDef def = extreme_reduce_def<MinReducer>("ReduceMin");
  return def;
}

}  // namespace bough::ops
