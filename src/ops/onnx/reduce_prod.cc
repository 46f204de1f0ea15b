// ReduceProd: the product over the given axes (see ops/onnx/reduce_op.h).
#include "ops/onnx/reduce_op.h"

namespace bough::ops {

const OpDef& def_ReduceProd() {
  static const OpDef def = numeric_reduce_def<ProdReducer>("ReduceProd");
  return def;
}

}  // namespace bough::ops
