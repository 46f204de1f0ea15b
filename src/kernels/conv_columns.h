// The matrix-product half of a column-matrix convolution, shared by Conv (im2col) and
// DeformConv (deformable sampling): the column matrix of one image is built in tiles of
// output positions, and each group multiplies its slice of the filter with its rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/elementwise_loops.h"
#include "kernels/matmul.h"
#include "kernels/scratch.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Elements of the column matrix built at once; larger outputs are done in column tiles.
inline constexpr int64_t kColBudget = int64_t{1} << 23;

// y (M x P) = w (M x C/groups*K per group) times the column matrix of one image, whose
// C * K rows (channel-major, then kernel tap) `fill(p0, p1, col)` writes for the output
// positions [p0, p1), every element of them. `col` and `tile_out` are scratch kept across
// images.
template <typename T, typename Fill>
void convolve_columns(const T* w, T* y, int64_t C, int64_t M, int64_t K, int64_t P, int64_t groups,
                      Fill&& fill, Scratch<T>& col_scratch, Scratch<T>& tile_scratch,
                      util::ThreadPool& pool) {
  const int64_t cg = C / groups, mg = M / groups, rows = C * K;
  const int64_t tile = std::clamp<int64_t>(kColBudget / std::max<int64_t>(1, rows), 1, P);
  T* const col = col_scratch.get(static_cast<size_t>(rows * tile));
  T* const tile_out = tile < P ? tile_scratch.get(static_cast<size_t>(M * tile)) : nullptr;
  std::vector<int64_t> a_off(static_cast<size_t>(groups)), b_off(static_cast<size_t>(groups));
  for (int64_t p0 = 0; p0 < P; p0 += tile) {
    const int64_t p1 = std::min(P, p0 + tile), n = p1 - p0;
    fill(p0, p1, col);
    for (int64_t g = 0; g < groups; ++g) {
      a_off[static_cast<size_t>(g)] = g * mg * cg * K;
      b_off[static_cast<size_t>(g)] = g * cg * K * n;
    }
    T* dst = n == P ? y : tile_out;
    batched_matmul<T>(w, col, dst, a_off, b_off, mg, cg * K, n, pool);
    if (n != P)
      for (int64_t m = 0; m < M; ++m) std::copy_n(dst + m * n, n, y + m * P + p0);
  }
}

// y (M x P) += bias[m] on each row m.
template <typename T>
void add_channel_bias(T* y, const T* bias, int64_t M, int64_t P, util::ThreadPool& pool) {
  pool.parallel_for(M, util::grain_for(P * kElementWork), [&](int64_t s, int64_t e) {
    for (int64_t m = s; m < e; ++m)
      for (int64_t p = 0; p < P; ++p) y[m * P + p] += bias[m];
  });
}

}  // namespace bough::kernels
