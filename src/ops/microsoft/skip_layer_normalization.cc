// com.microsoft SkipLayerNormalization-1: LayerNormalization over the last dimension of
// s = input + skip + bias, output = (s - mean) * inv_std * gamma + beta (beta and bias
// optional). The optional outputs give mean and inv_std_var (float, the input's dims with a
// last dim of 1) and input_skip_bias_sum (s itself, the residual the next block adds).
#include "ops/microsoft/skip_norm.h"

namespace bough::ops {

namespace {
namespace skip_layer_normalization_op {
constexpr SignatureText kRows[] = {
    {1,
     "input: T, skip: T, gamma: T, beta?: T, bias?: T -> output: T, mean?: U, "
     "inv_std_var?: U, input_skip_bias_sum?: T; T = float float16 bfloat16, U = float; "
     "epsilon: float?"}};

}  // namespace skip_layer_normalization_op
}  // namespace

OpDef def_MsSkipLayerNormalization() {
  using namespace skip_layer_normalization_op;
  return microsoft::skip_norm_def("SkipLayerNormalization", false, kRows);
}

}  // namespace bough::ops
