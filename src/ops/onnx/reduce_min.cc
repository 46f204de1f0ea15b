// ReduceMin: the minimum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

OpDef def_ReduceMin() { return extreme_reduce_def<MinReducer>("ReduceMin"); }

}  // namespace bough::ops
