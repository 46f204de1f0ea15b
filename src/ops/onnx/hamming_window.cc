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

const OpDef& def_HammingWindow() {
  using namespace hamming_window_op;
  static const OpDef def{"",
                         "HammingWindow",
                         {17},
                         1,
                         1,
                         1,
                         1,
                         make_window<hamming>,
                         infer_window,
                         {{17,
                           "size: T1 -> output: T2; T1 = int32 int64, T2 = numeric bfloat16; "
                           "output_datatype: int = 1, periodic: int = 1"}}};
  return def;
}

}  // namespace bough::ops
