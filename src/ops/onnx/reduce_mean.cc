// ReduceMean: the mean (NaN for an empty set) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

const OpDef& def_ReduceMean() {
  static const OpDef def = numeric_reduce_def<MeanReducer>("ReduceMean");
  return def;
}

}  // namespace bough::ops
