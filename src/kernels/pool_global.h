// The global pooling operators: one value per (batch, channel) plane of X (N x C x D1..Dn),
// output shape (N, C, 1, ..., 1).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "bough/error.h"
#include "bough/tensor.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/through_float.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// The sum of p[0..n), in vectors of partial sums (so rounded differently from a sum in
// order; a NaN or an infinity comes out as in any order).
float sum_f32(const float* p, int64_t n);

// y[plane] = reduce(plane's elements, their count), planes split across `pool`.
template <typename T, typename Reduce>
Tensor global_pool(const Tensor& x, util::ThreadPool& pool, const char* name, Reduce reduce) {
  if (x.rank() < 2)
    fail(ErrorKind::BadInput, "",
         std::string(name) + " needs an input of rank 2 or more, got shape " +
             shape_string(x.shape()));
  Dims shape{x.dim(0), x.dim(1)};
  for (size_t d = 2; d < x.rank(); ++d) shape.push_back(1);
  Tensor y(x.type(), shape);
  const int64_t planes = x.dim(0) * x.dim(1);
  const int64_t n = planes > 0 ? x.numel() / planes : 0;
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  pool.parallel_for(planes, util::grain_for(n * kElementWork), [&](int64_t b, int64_t e) {
    for (int64_t p = b; p < e; ++p) dst[p] = reduce(src + p * n, n);
  });
  return y;
}

// global_pool for a float X of any width: float16 and bfloat16 through float, so
// reduce(p, n) is called with `const T* p` for T float or double.
template <typename Reduce>
Tensor global_pool_float(const Tensor& x, util::ThreadPool& pool, const char* name, Reduce reduce) {
  return through_float(
      [&](const Tensor& x) {
        return visit_float(x.type(), name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          return global_pool<T>(x, pool, name, [&](const T* p, int64_t n) { return reduce(p, n); });
        });
      },
      x);
}

}  // namespace bough::kernels
