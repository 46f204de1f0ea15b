// HannWindow: w[n] = sin²(πn/N) = 0.5 - 0.5·cos(2πn/N) (see ops/onnx/window.h for N).
#include "ops/onnx/window.h"

namespace bough::ops {

namespace {
namespace hann_window_op {
double hann(double n, double N) { return 0.5 - 0.5 * window_cos(1, n, N); }
}  // namespace hann_window_op
}  // namespace

OpDef def_HannWindow() { return window_def<hann_window_op::hann>("HannWindow"); }

}  // namespace bough::ops
