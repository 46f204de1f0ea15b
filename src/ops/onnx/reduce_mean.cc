// ReduceMean: the mean (NaN for an empty set) over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

OpDef def_ReduceMean() { return numeric_reduce_def<MeanReducer>("ReduceMean"); }

}  // namespace bough::ops
