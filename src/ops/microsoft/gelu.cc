// com.microsoft Gelu-1: y = 0.5 * x * (1 + erf(x / sqrt(2))), the exact Gelu (ai.onnx Gelu-20
// with approximate="none", which it predates).
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace gelu_op {
constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = float float16 double bfloat16"}};

}  // namespace gelu_op
}  // namespace

OpDef def_MsGelu() {
  using namespace gelu_op;
  return def_from_rows("com.microsoft", "Gelu",
                       microsoft::make_fast_bias_map<kernels::FastFn::Gelu, kernels::kGeluWork>,
                       infer_same_as_first, kRows);
}

}  // namespace bough::ops
