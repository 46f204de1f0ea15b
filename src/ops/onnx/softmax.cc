// Softmax: exp(x) / sum(exp(x)) along an axis. Before opset 13 the input is coerced to 2-D
// at `axis` (default 1) and the softmax runs over all of the trailing part; from 13 it runs
// along the one axis (default -1).
#include "kernels/softmax_rows.h"
#include "ops/onnx/softmax_like.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace softmax_op {

struct Softmax {
  static constexpr const char* name = "Softmax";
  static constexpr int64_t kWork = kernels::kSoftmaxWork;
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    kernels::softmax_blocks<false>(x, y, o0, o1, s.n, s.inner);
  }
};

}  // namespace softmax_op
}  // namespace

const OpDef& def_Softmax() {
  static const OpDef def = softmax_like_def<softmax_op::Softmax>();
  return def;
}

}  // namespace bough::ops
