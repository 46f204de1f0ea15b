// LogSoftmax: x - max - log(sum(exp(x - max))) along an axis. Before opset 13 the input is
// coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis (default -1).
#include "ops/onnx/softmax_like.h"

namespace bough::ops {

OpDef def_LogSoftmax() { return softmax_like_def<SoftmaxBlock<true>>(); }

}  // namespace bough::ops
