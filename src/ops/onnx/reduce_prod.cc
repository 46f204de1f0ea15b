// ReduceProd: the product over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

OpDef def_ReduceProd() { return numeric_reduce_def<ProdReducer>("ReduceProd"); }

}  // namespace bough::ops
