// LogSoftmax: x - max - log(sum(exp(x - max))) along an axis. Before opset 13 the input is
// coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis (default -1).
#include "ops/onnx/softmax_like.h"

namespace bough::ops {

const OpDef& def_LogSoftmax() {
  static const OpDef def = softmax_like_def<SoftmaxBlock<true>>();
  return def;
}

}  // namespace bough::ops
