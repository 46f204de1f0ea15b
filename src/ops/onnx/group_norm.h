// The normalization GroupNormalization and InstanceNormalization share (the latter is one
// group per channel): the channels of X (N x C x D1..Dn) split into `groups` groups, each
// (batch, group) normalized by its own mean and biased variance, then scaled and shifted:
// y = scale * (x - mean) / sqrt(var + epsilon) + bias. scale and bias hold one value per
// group, or per channel when per_channel. float16/bfloat16 go through float.
#pragma once

#include <algorithm>

#include "kernels/dispatch.h"
#include "kernels/pool_moments.h"
#include "kernels/through_float.h"

namespace bough::ops {

template <typename T>
Tensor normalize_groups(const Tensor& x, const Tensor& scale, const Tensor& bias, int64_t groups,
                        bool per_channel, double epsilon, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), C = x.dim(1);
  const int64_t plane = C > 0 && N > 0 ? x.numel() / (N * C) : 0;
  const int64_t cg = groups > 0 ? C / groups : 0, size = cg * plane;
  const T* src = x.data<T>();
  const kernels::Moments m = kernels::pool_moments(src, N * groups, size, epsilon, pool);
  Tensor y(x.type(), x.shape());
  T* dst = y.data<T>();
  const T* s = scale.data<T>();
  const T* b = bias.data<T>();
  const int64_t grain = util::grain_for(plane * kernels::kElementWork);
  pool.parallel_for(N * C, grain, [&](int64_t lo, int64_t hi) {
    for (int64_t p = lo; p < hi; ++p) {  // p = n * C + c
      const int64_t c = p % C, g = (p / C) * groups + c / cg;
      const int64_t at = per_channel ? c : c / cg;
      const T k = static_cast<T>(m.inv_std[g] * static_cast<double>(s[at]));
      const T mean = static_cast<T>(m.mean[g]), shift = b[at];
      for (int64_t i = p * plane; i < (p + 1) * plane; ++i) dst[i] = (src[i] - mean) * k + shift;
    }
  });
  return y;
}

// The caller has checked x's rank (2 or more), that `groups` divides C, and the sizes and
// types of scale and bias.
inline Tensor normalize_groups(const Tensor& x, const Tensor& scale, const Tensor& bias,
                               int64_t groups, bool per_channel, double epsilon,
                               util::ThreadPool& pool, const char* name) {
  auto normalize = [&](const Tensor& x, const Tensor& scale, const Tensor& bias) {
    return kernels::visit_float(x.type(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return normalize_groups<T>(x, scale, bias, groups, per_channel, epsilon, pool);
    });
  };
  return kernels::through_float(normalize, x, scale, bias);
}

}  // namespace bough::ops
