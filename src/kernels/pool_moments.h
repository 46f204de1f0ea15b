// Mean and inverse standard deviation pooled over groups of contiguous elements: the
// statistics of InstanceNormalization, GroupNormalization and LayerNormalization; and the
// inverse root mean square of RMSNormalization and com.microsoft's simplified (RMS) forms.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/elementwise_loops.h"
#include "util/thread_pool.h"

namespace bough::kernels {

struct Moments {
  std::vector<double> mean;
  std::vector<double> inv_std;  // 1 / sqrt(variance + epsilon), the biased variance
};

// The moments of `groups` groups of `size` elements, x[g*size .. (g+1)*size), in double.
template <typename T>
Moments pool_moments(const T* x, int64_t groups, int64_t size, double epsilon,
                     util::ThreadPool& pool) {
  Moments m;
  m.mean.resize(static_cast<size_t>(groups));
  m.inv_std.resize(static_cast<size_t>(groups));
  const int64_t grain = util::grain_for(size * kElementWork);
  pool.parallel_for(groups, grain, [&](int64_t b, int64_t e) {
    for (int64_t g = b; g < e; ++g) {
      const T* v = x + g * size;
      // One pass of sums and sums of squares in double, in independent lanes.
      constexpr int kLanes = 8;
      double sum[kLanes] = {}, sq[kLanes] = {};
      int64_t i = 0;
      for (; i + kLanes <= size; i += kLanes)
        for (int l = 0; l < kLanes; ++l) {
          const double d = static_cast<double>(v[i + l]);
          sum[l] += d;
          sq[l] += d * d;
        }
      for (; i < size; ++i) {
        const double d = static_cast<double>(v[i]);
        sum[0] += d;
        sq[0] += d * d;
      }
      for (int l = 1; l < kLanes; ++l) {
        sum[0] += sum[l];
        sq[0] += sq[l];
      }
      const double n = static_cast<double>(size);
      const double mean = size > 0 ? sum[0] / n : 0.0;
      const double var = size > 0 ? std::max(0.0, sq[0] / n - mean * mean) : 0.0;
      m.mean[static_cast<size_t>(g)] = mean;
      m.inv_std[static_cast<size_t>(g)] = 1.0 / std::sqrt(var + epsilon);
    }
  });
  return m;
}

// 1 / sqrt(mean(x^2) + epsilon) over the n elements at x, accumulated in double in
// independent lanes (1 / sqrt(epsilon) for none).
template <typename T>
double inverse_rms(const T* x, int64_t n, double epsilon) {
  constexpr int kLanes = 8;
  double sq[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (int l = 0; l < kLanes; ++l) {
      const double d = static_cast<double>(x[i + l]);
      sq[l] += d * d;
    }
  for (; i < n; ++i) sq[0] += static_cast<double>(x[i]) * static_cast<double>(x[i]);
  for (int l = 1; l < kLanes; ++l) sq[0] += sq[l];
  return 1.0 / std::sqrt((n > 0 ? sq[0] / static_cast<double>(n) : 0.0) + epsilon);
}

}  // namespace bough::kernels
