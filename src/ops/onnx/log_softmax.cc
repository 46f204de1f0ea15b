// LogSoftmax: x - max - log(sum(exp(x - max))) along an axis. Before opset 13 the input is
// coerced to 2-D at `axis` (default 1); from 13 it runs along the one axis (default -1).
#include "kernels/softmax_rows.h"
#include "ops/onnx/softmax_like.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace log_softmax_op {

// y[o, :, i] = log_softmax(x[o, :, i]) for each o in [o0, o1) and each i.
struct LogSoftmax {
  static constexpr const char* name = "LogSoftmax";
  static constexpr int64_t kWork = kernels::kSoftmaxWork;
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    kernels::softmax_blocks<true>(x, y, o0, o1, s.n, s.inner);
  }
};

}  // namespace log_softmax_op
}  // namespace

const OpDef& def_LogSoftmax() {
  static const OpDef def = softmax_like_def<log_softmax_op::LogSoftmax>();
  return def;
}

}  // namespace bough::ops
