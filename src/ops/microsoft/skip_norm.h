// What com.microsoft's normalizations share (SkipLayerNormalization,
// SkipSimplifiedLayerNormalization, SimplifiedLayerNormalization): x seen as rows of the
// normalized size, s = x + skip + bias per row, then either LayerNormalization,
// y = (s - mean) * inv_std * gamma + beta with inv_std = 1 / sqrt(var(s) + epsilon), or the
// simplified (RMS) form, y = s * inv_std * gamma with inv_std = 1 / sqrt(mean(s^2) + epsilon).
// Statistics are accumulated in double (kernels/pool_moments.h for the full form); float16 and
// bfloat16 are computed in float.
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>

#include "ops/registry.h"

namespace bough::ops::microsoft {

struct NormInputs {
  const Tensor* x = nullptr;
  const Tensor* skip = nullptr;   // x's shape, or its trailing dims (leading 1s allowed)
  const Tensor* gamma = nullptr;  // as many elements as a row
  const Tensor* beta = nullptr;   // as many elements as a row
  const Tensor* bias = nullptr;   // as many elements as a row
};

struct NormOutputs {
  Tensor y;    // x's type and shape
  Tensor sum;  // s = x + skip + bias, x's type and shape (undefined unless asked for)
  // x's dims before `axis`, 1 from there on, in double; the mean is 0 in the simplified form
  // (none is taken), as ONNX Runtime gives it.
  Tensor mean, inv_std;
};

// Normalizes over x's dims from `axis` (already non-negative) on. Throws BadInput naming
// `op` on shapes or types that do not fit.
NormOutputs skip_normalize(const NormInputs& in, int64_t axis, bool simplified, double epsilon,
                           bool want_sum, util::ThreadPool& pool, const char* op);

// The definition, given its schema rows, of SkipLayerNormalization (inputs input, skip, gamma,
// beta?, bias?) or, when `simplified`, SkipSimplifiedLayerNormalization (input, skip, gamma,
// bias?): normalized over the last dimension; outputs output, mean?, inv_std_var? (float) and
// input_skip_bias_sum?. epsilon is the node's (1e-12 by default).
OpDef skip_norm_def(std::string_view name, bool simplified, std::span<const SignatureText> rows);

// Output types for the three operators: output 0 (and the sum output `sum_output`, when
// > 0) like input 0; outputs `stats` (mean, inv_std) of x's shape with a 1 for every dim from
// `axis` on, in `stat_type`.
void infer_skip_norm(InferContext& ctx, int64_t axis, std::initializer_list<size_t> stats,
                     ElemType stat_type, size_t sum_output);

}  // namespace bough::ops::microsoft
