// com.microsoft BiasGelu-1: C = Gelu(A + B), the exact (erf) Gelu, with the 1-D bias B along
// A's last dimension.
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bias_gelu_op {
constexpr SignatureText kRows[] = {{1, "A: T, B: T -> C: T; T = float float16 double bfloat16"}};

}  // namespace bias_gelu_op
}  // namespace

OpDef def_MsBiasGelu() {
  using namespace bias_gelu_op;
  return def_from_rows("com.microsoft", "BiasGelu",
                       microsoft::make_fast_bias_map<kernels::FastFn::Gelu, kernels::kGeluWork>,
                       infer_same_as_first, kRows);
}

}  // namespace bough::ops
