// HammingWindow: w[n] = α - β·cos(2πn/N) with α = 25/46, β = 1 - α (see ops/onnx/window.h
// for N).
#include "ops/onnx/window.h"

namespace bough::ops {

namespace {
namespace hamming_window_op {
double hamming(double n, double N) {
  constexpr double alpha = 25.0 / 46.0;
  return alpha - (1 - alpha) * window_cos(1, n, N);
}
}  // namespace hamming_window_op
}  // namespace

OpDef def_HammingWindow() { return window_def<hamming_window_op::hamming>("HammingWindow"); }

}  // namespace bough::ops
