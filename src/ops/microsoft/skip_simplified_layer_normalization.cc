// com.microsoft SkipSimplifiedLayerNormalization-1: the RMS normalization over the last
// dimension of s = input + skip + bias, output = s * inv_std * gamma with
// inv_std = 1 / sqrt(mean(s^2) + epsilon) (no mean subtracted, no beta). The optional outputs
// give mean (0: none is taken, as ONNX Runtime gives it) and inv_std_var (float, the input's
// dims with a last dim of 1) and input_skip_bias_sum (s).
#include "ops/microsoft/skip_norm.h"

namespace bough::ops {

namespace {
namespace skip_simplified_layer_normalization_op {
constexpr SignatureText kRows[] = {
    {1,
     "input: T, skip: T, gamma: T, bias?: T -> output: T, mean?: U, inv_std_var?: U, "
     "input_skip_bias_sum?: T; T = float float16 bfloat16, U = float; epsilon: float?"}};

}  // namespace skip_simplified_layer_normalization_op
}  // namespace

OpDef def_MsSkipSimplifiedLayerNormalization() {
  using namespace skip_simplified_layer_normalization_op;
  return microsoft::skip_norm_def("SkipSimplifiedLayerNormalization", true, kRows);
}

}  // namespace bough::ops
