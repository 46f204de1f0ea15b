// Softmax and LogSoftmax along one axis of a [outer, n, inner] block, with the fast exp and
// log of kernels/fast_math.h for float.
//
// Along a contiguous row (inner = 1) the maximum and the sum of exponentials come from one
// pass over the row, a block of kBlock elements at a time: the block's maximum (read from L1),
// then its exponentials relative to it, and the running sum rescaled whenever the maximum
// grows (online softmax). Softmax keeps the block's exponentials in y as it goes and scales
// each block once at the end, so every element takes one exp. Along another axis the columns
// are handled kColumns at a time, side by side, without a transposed copy.
//
// As in the ONNX reference (x - max(x), then exp), a row of -inf only gives NaN, and +inf or
// NaN anywhere in a row makes the row NaN; -inf among finite values gives 0 (Softmax) and
// -inf (LogSoftmax).
//
// Every function is inlined into its caller, so that the float entry point's copy for each
// vector target compiles all of it for that target.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/fast_math.h"

namespace bough::kernels {

namespace softmax_detail {

// Lanes of independent partial results in the row folds: fixed-width inner loops break
// the dependency chain and vectorize.
inline constexpr int kLanes = 16;
// Elements per block of a row, and the most blocks a row has (longer rows take longer
// blocks): Softmax keeps each block's maximum until the end.
inline constexpr int64_t kBlock = 512;
inline constexpr int64_t kMaxBlocks = 64;
// Columns handled side by side along a non-innermost axis; their running maxima and sums
// live on the stack.
inline constexpr int64_t kColumns = 256;

// The passes over a run of a row, as plain loops the compiler vectorizes where it can
// (kernels/softmax_f32.cc has Highway versions for float: the same exponentials, summed in
// another order).
struct ScalarRows {
  template <typename T>
  [[gnu::always_inline]] static T max_of(const T* x, int64_t n) {
    T lane[kLanes];
    std::fill(lane, lane + kLanes, -std::numeric_limits<T>::infinity());
    int64_t r = 0;
    for (; r + kLanes <= n; r += kLanes)
      for (int t = 0; t < kLanes; ++t) lane[t] = std::max(lane[t], x[r + t]);
    T mx = *std::max_element(lane, lane + kLanes);
    for (; r < n; ++r) mx = std::max(mx, x[r]);
    return mx;
  }

  // The sum of e^(x - shift) over x[0, n), each term also written to y[0, n) when Store.
  // shift is at least every x but NaN (a block's maximum, or 0 for a block of -inf).
  template <bool Store, typename T>
  [[gnu::always_inline]] static T sum_exp(const T* x, T* y, int64_t n, T shift) {
    T lane[kLanes] = {};
    int64_t r = 0;
    for (; r + kLanes <= n; r += kLanes)
      for (int t = 0; t < kLanes; ++t) {
        const T e = fast_exp(x[r + t] - shift);
        if constexpr (Store) y[r + t] = e;
        lane[t] += e;
      }
    T sum = 0;
    for (int t = 0; t < kLanes; ++t) sum += lane[t];
    for (; r < n; ++r) {
      const T e = fast_exp(x[r] - shift);
      if constexpr (Store) y[r] = e;
      sum += e;
    }
    return sum;
  }

  // y[0, n) *= f.
  template <typename T>
  [[gnu::always_inline]] static void scale(T* y, int64_t n, T f) {
    for (int64_t r = 0; r < n; ++r) y[r] *= f;
  }
};

// e^(from - to), the factor that moves a sum of exponentials taken relative to `from` to
// one relative to `to` >= from; 1 when they are equal (so -inf to -inf stays 1, not NaN).
template <typename T>
[[gnu::always_inline]] inline T rescale(T from, T to) {
  return from == to ? T(1) : fast_exp(from - to);
}

// The shift a block's exponentials are taken relative to: its maximum, or 0 for a block of
// -inf (whose exponentials are then 0, not NaN).
template <typename T>
[[gnu::always_inline]] inline T block_shift(T block_max) {
  return block_max == -std::numeric_limits<T>::infinity() ? T(0) : block_max;
}

// Running maximum and sum of e^(x - max) over a row.
template <typename T>
struct MaxSum {
  T max = -std::numeric_limits<T>::infinity();
  T sum = 0;
  // Adds a block whose maximum is `block_max` and whose sum relative to `shift` is `sum`.
  // A block of -inf adds 0 (block_sum is at least 1 otherwise: e^0 for its maximum), which
  // also keeps 0 * e^(0 - -inf) out while every block so far was -inf. A sum of 0 stays 0
  // without its rescale factor (never NaN: max is never NaN), which spares a row of one
  // block its only scalar exp.
  [[gnu::always_inline]] void add(T block_max, T shift, T block_sum) {
    const T m = std::max(max, block_max);
    sum = (sum == T(0) ? T(0) : sum * rescale(max, m)) +
          (block_sum == T(0) ? T(0) : block_sum * rescale(shift, m));
    max = m;
  }
};

[[gnu::always_inline]] inline int64_t block_length(int64_t n) {
  return std::max(kBlock, (n + kMaxBlocks - 1) / kMaxBlocks);
}

}  // namespace softmax_detail

// y = softmax(x) along a contiguous row of n elements, the passes over the row from Rows.
template <typename Rows, typename T>
[[gnu::always_inline]] inline void softmax_row(const T* x, T* y, int64_t n) {
  using namespace softmax_detail;
  const int64_t block = block_length(n);
  T shifts[kMaxBlocks];
  MaxSum<T> ms;
  for (int64_t b = 0, i = 0; b < n; b += block, ++i) {
    const int64_t w = std::min(block, n - b);
    const T bm = Rows::max_of(x + b, w);
    shifts[i] = block_shift(bm);
    ms.add(bm, shifts[i], Rows::template sum_exp<true>(x + b, y + b, w, shifts[i]));
  }
  const T inv = T(1) / ms.sum;
  for (int64_t b = 0, i = 0; b < n; b += block, ++i) {
    const int64_t w = std::min(block, n - b);
    Rows::scale(y + b, w, rescale(shifts[i], ms.max) * inv);
  }
}

// y = log_softmax(x) along a contiguous row of n elements, the passes from Rows.
template <typename Rows, typename T>
[[gnu::always_inline]] inline void log_softmax_row(const T* x, T* y, int64_t n) {
  using namespace softmax_detail;
  const int64_t block = block_length(n);
  MaxSum<T> ms;
  for (int64_t b = 0; b < n; b += block) {
    const int64_t w = std::min(block, n - b);
    const T bm = Rows::max_of(x + b, w);
    const T shift = block_shift(bm);
    ms.add(bm, shift, Rows::template sum_exp<false>(x + b, y, w, shift));
  }
  // (x - max) - log(sum), not x - (max + log(sum)): near a large maximum the sum would
  // round away the low bits of the result.
  const T m = ms.max, log_sum = fast_log(ms.sum);
  for (int64_t r = 0; r < n; ++r) y[r] = (x[r] - m) - log_sum;
}

// y[:, i] = softmax or log_softmax (Log) of x[:, i] for the `inner` columns of an n x inner
// slab (the axis is not the innermost one).
template <bool Log, typename T>
[[gnu::always_inline]] inline void softmax_columns(const T* x, T* y, int64_t n, int64_t inner) {
  using namespace softmax_detail;
  T mx[kColumns], sum[kColumns];
  for (int64_t i0 = 0; i0 < inner; i0 += kColumns) {
    const int64_t w = std::min(kColumns, inner - i0);
    const T* xb = x + i0;
    T* yb = y + i0;
    std::fill(mx, mx + w, -std::numeric_limits<T>::infinity());
    std::fill(sum, sum + w, T(0));
    for (int64_t r = 0; r < n; ++r) {
      const T* xr = xb + r * inner;
      for (int64_t i = 0; i < w; ++i) mx[i] = xr[i] > mx[i] ? xr[i] : mx[i];
    }
    for (int64_t r = 0; r < n; ++r) {
      const T* xr = xb + r * inner;
      T* yr = yb + r * inner;
      for (int64_t i = 0; i < w; ++i) {
        const T e = fast_exp(xr[i] - mx[i]);
        if constexpr (!Log) yr[i] = e;
        sum[i] += e;
      }
    }
    if constexpr (Log) {
      for (int64_t i = 0; i < w; ++i) sum[i] = fast_log(sum[i]);
      for (int64_t r = 0; r < n; ++r)
        for (int64_t i = 0; i < w; ++i) yb[r * inner + i] = (xb[r * inner + i] - mx[i]) - sum[i];
    } else {
      for (int64_t i = 0; i < w; ++i) sum[i] = T(1) / sum[i];
      for (int64_t r = 0; r < n; ++r)
        for (int64_t i = 0; i < w; ++i) yb[r * inner + i] *= sum[i];
    }
  }
}

// y = softmax or log_softmax (Log) of x along the middle axis of the [outer, n, inner]
// blocks [o0, o1), compiled where it is called; the passes over contiguous rows from Rows.
template <bool Log, typename Rows = softmax_detail::ScalarRows, typename T>
[[gnu::always_inline]] inline void softmax_blocks_here(const T* x, T* y, int64_t o0, int64_t o1,
                                                       int64_t n, int64_t inner) {
  for (int64_t o = o0; o < o1; ++o) {
    const T* xo = x + o * n * inner;
    T* yo = y + o * n * inner;
    if (inner != 1)
      softmax_columns<Log>(xo, yo, n, inner);
    else if constexpr (Log)
      log_softmax_row<Rows>(xo, yo, n);
    else
      softmax_row<Rows>(xo, yo, n);
  }
}

// softmax_blocks_here for float, compiled once per vector target (kernels/softmax_f32.cc:
// with AVX-512's 32 registers the exp loops no longer spill) and picked at run time.
void softmax_blocks_f32(bool log, const float* x, float* y, int64_t o0, int64_t o1, int64_t n,
                        int64_t inner);

// softmax_blocks_here, floats through softmax_blocks_f32.
template <bool Log, typename T>
void softmax_blocks(const T* x, T* y, int64_t o0, int64_t o1, int64_t n, int64_t inner) {
  if constexpr (std::is_same_v<T, float>)
    softmax_blocks_f32(Log, x, y, o0, o1, n, inner);
  else
    softmax_blocks_here<Log>(x, y, o0, o1, n, inner);
}

}  // namespace bough::kernels
