// Softmax: exp(x) / sum(exp(x)) along an axis. Before opset 13 the input is coerced to 2-D
// at `axis` (default 1) and the softmax runs over all of the trailing part; from 13 it runs
// along the one axis (default -1).
#include <algorithm>
#include <cmath>
#include <limits>

#include "ops/onnx/softmax_like.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

// Lanes of independent partial results in the row folds below: fixed-width inner loops
// break the dependency chain and vectorize.
constexpr int kLanes = 8;

template <typename T>
T row_max(const T* x, int64_t n) {
  T lane[kLanes];
  std::fill(lane, lane + kLanes, -std::numeric_limits<T>::infinity());
  int64_t r = 0;
  for (; r + kLanes <= n; r += kLanes)
    for (int t = 0; t < kLanes; ++t) lane[t] = std::max(lane[t], x[r + t]);
  T mx = *std::max_element(lane, lane + kLanes);
  for (; r < n; ++r) mx = std::max(mx, x[r]);
  return mx;
}

template <typename T>
T row_sum(const T* x, int64_t n) {
  T lane[kLanes] = {};
  int64_t r = 0;
  for (; r + kLanes <= n; r += kLanes)
    for (int t = 0; t < kLanes; ++t) lane[t] += x[r + t];
  T sum = 0;
  for (int t = 0; t < kLanes; ++t) sum += lane[t];
  for (; r < n; ++r) sum += x[r];
  return sum;
}

// y[o, :] = softmax(x[o, :]) for each o in [o0, o1): the axis is innermost.
template <typename T>
void softmax_rows(const T* x, T* y, int64_t o0, int64_t o1, int64_t n) {
  for (int64_t o = o0; o < o1; ++o) {
    const T* xr = x + o * n;
    T* yr = y + o * n;
    const T mx = row_max(xr, n);
    for (int64_t r = 0; r < n; ++r) yr[r] = std::exp(xr[r] - mx);
    const T inv = T(1) / row_sum(yr, n);
    for (int64_t r = 0; r < n; ++r) yr[r] *= inv;
  }
}

// y[o, :, i] = softmax(x[o, :, i]) for each o in [o0, o1) and each i.
template <typename T>
void softmax_block(const T* x, T* y, int64_t o0, int64_t o1, int64_t n, int64_t inner) {
  if (inner == 1) return softmax_rows(x, y, o0, o1, n);
  constexpr int64_t kCols = 256;  // columns per pass; their running max and sum on the stack
  T mx[kCols], sum[kCols];
  for (int64_t o = o0; o < o1; ++o) {
    for (int64_t i0 = 0; i0 < inner; i0 += kCols) {
      const int64_t w = std::min(kCols, inner - i0);
      const T* xb = x + o * n * inner + i0;
      T* yb = y + o * n * inner + i0;
      std::fill(mx, mx + w, -std::numeric_limits<T>::infinity());
      std::fill(sum, sum + w, T(0));
      for (int64_t r = 0; r < n; ++r)
        for (int64_t i = 0; i < w; ++i) mx[i] = std::max(mx[i], xb[r * inner + i]);
      for (int64_t r = 0; r < n; ++r) {
        for (int64_t i = 0; i < w; ++i) {
          yb[r * inner + i] = std::exp(xb[r * inner + i] - mx[i]);
          sum[i] += yb[r * inner + i];
        }
      }
      for (int64_t i = 0; i < w; ++i) sum[i] = T(1) / sum[i];
      for (int64_t r = 0; r < n; ++r)
        for (int64_t i = 0; i < w; ++i) yb[r * inner + i] *= sum[i];
    }
  }
}

struct Softmax {
  static constexpr const char* name = "Softmax";
  template <typename T>
  void operator()(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s) const {
    softmax_block(x, y, o0, o1, s.n, s.inner);
  }
};

}  // namespace

const OpDef& def_Softmax() {
  static const OpDef def{"",
                         "Softmax",
                         {1, 11, 13},
                         1,
                         1,
                         1,
                         1,
                         make_softmax_like<Softmax>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats; axis: int = 1"},
                          {11, "input: T -> output: T; T = floats; axis: int = 1"},
                          {13, "input: T -> output: T; T = floats bfloat16; axis: int = -1"}}};
  return def;
}

}  // namespace bough::ops
