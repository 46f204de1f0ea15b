// ReduceMax: the maximum (bool from opset 20) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

const OpDef& def_ReduceMax() {
  static const OpDef def = extreme_reduce_def<MaxReducer>("ReduceMax");
  return def;
}

}  // namespace bough::ops
