// Softmax: exp(x) / sum(exp(x)) along an axis. Before opset 13 the input is coerced to 2-D
// at `axis` (default 1) and the softmax runs over all of the trailing part; from 13 it runs
// along the one axis (default -1).
#include "ops/onnx/softmax_like.h"

namespace bough::ops {

OpDef def_Softmax() { return softmax_like_def<SoftmaxBlock<false>>(); }

}  // namespace bough::ops
