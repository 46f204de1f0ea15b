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

const OpDef& def_BlackmanWindow() {
  using namespace blackman_window_op;
  static const OpDef def{"",
                         "BlackmanWindow",
                         {17},
                         1,
                         1,
                         1,
                         1,
                         make_window<blackman>,
                         infer_window,
                         {{17,
                           "size: T1 -> output: T2; T1 = int32 int64, T2 = numeric bfloat16; "
                           "output_datatype: int = 1, periodic: int = 1"}}};
  return def;
}

}  // namespace bough::ops
