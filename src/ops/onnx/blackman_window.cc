// BlackmanWindow: w[n] = 0.42 - 0.5·cos(2πn/N) + 0.08·cos(4πn/N) (see ops/onnx/window.h for
// N).
#include "ops/onnx/window.h"

namespace bough::ops {

namespace {
namespace blackman_window_op {
double blackman(double n, double N) {
  return 0.42 - 0.5 * window_cos(1, n, N) + 0.08 * window_cos(2, n, N);
}
}  // namespace blackman_window_op
}  // namespace

OpDef def_BlackmanWindow() { return window_def<blackman_window_op::blackman>("BlackmanWindow"); }

}  // namespace bough::ops
