// HannWindow: w[n] = sin²(πn/N) = 0.5 - 0.5·cos(2πn/N) (see ops/onnx/window.h for N).
#include "ops/onnx/window.h"

namespace bough::ops {

namespace {
namespace hann_window_op {
double hann(double n, double N) { return 0.5 - 0.5 * window_cos(1, n, N); }
}  // namespace hann_window_op
}  // namespace

const OpDef& def_HannWindow() {
  using namespace hann_window_op;
  static const OpDef def{"",
                         "HannWindow",
                         {17},
                         1,
                         1,
                         1,
                         1,
                         make_window<hann>,
                         infer_window,
                         {{17,
                           "size: T1 -> output: T2; T1 = int32 int64, T2 = numeric bfloat16; "
                           "output_datatype: int = 1, periodic: int = 1"}}};
  return def;
}

}  // namespace bough::ops
