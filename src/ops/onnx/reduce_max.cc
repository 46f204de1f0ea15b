// ReduceMax: the maximum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

OpDef def_ReduceMax() { return extreme_reduce_def<MaxReducer>("ReduceMax"); }

}  // namespace bough::ops
