// com.microsoft FastGelu-1: Gelu's tanh approximation of x + bias (bias optional, 1-D along
// x's last dimension): y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace fast_gelu_op {
constexpr SignatureText kRows[] = {
    {1, "X: T, bias?: T -> Y: T; T = float float16 double bfloat16"}};

}  // namespace fast_gelu_op
}  // namespace

OpDef def_MsFastGelu() {
  using namespace fast_gelu_op;
  return def_from_rows(
      "com.microsoft", "FastGelu",
      microsoft::make_fast_bias_map<kernels::FastFn::GeluTanh, kernels::kGeluTanhWork>,
      infer_same_as_first, kRows);
}

}  // namespace bough::ops
