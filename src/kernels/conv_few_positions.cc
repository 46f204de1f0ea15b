#include "kernels/conv_few_positions.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/scratch.h"

namespace bough::kernels {

namespace {

// The transposed column matrix: row p (of win.out_numel()) holds, for each channel c and
// kernel tap k, the image value under tap k of output position p (0 in the padding), at
// column c * K + k. Along the last dimension a tap run of stride-1 dilation is one copy.
void im2row(const float* x, int64_t C, const Window& win, float* rows_out) {
  const size_t r = win.rank();
  const int64_t P = win.out_numel(), K = win.kernel_numel(), in = win.in_numel();
  const int64_t k_last = win.kernel[r - 1], k_outer = K / k_last, in_last = win.in[r - 1];
  const int64_t dil = win.dilation[r - 1];
  std::vector<int64_t> o(r);
  for (int64_t p = 0; p < P; ++p) {
    for (size_t d = r, q = static_cast<size_t>(p); d-- > 0;) {
      o[d] = static_cast<int64_t>(q) % win.out[d];
      q /= static_cast<size_t>(win.out[d]);
    }
    // Taps [lo, hi) of the last dimension read inside the image: 0 <= first + t * dil < in_last.
    const int64_t first = o[r - 1] * win.stride[r - 1] - win.pad_begin[r - 1];
    const int64_t lo = std::min(k_last, first >= 0 ? 0 : (-first + dil - 1) / dil);
    const int64_t hi = std::max(lo, std::min(k_last, (in_last - first + dil - 1) / dil));
    float* dst = rows_out + p * C * K;
    for (int64_t ko = 0; ko < k_outer; ++ko, dst += k_last) {
      const int64_t row = win.image_row(o, ko);
      for (int64_t c = 0; c < C; ++c) {
        float* out = dst + c * K;
        if (row < 0) {
          std::fill(out, out + k_last, 0.0f);
          continue;
        }
        const float* line = x + c * in + row * in_last;
        std::fill(out, out + lo, 0.0f);
        if (dil == 1) {
          std::memcpy(out + lo, line + first + lo, static_cast<size_t>(hi - lo) * sizeof(float));
        } else {
          for (int64_t t = lo; t < hi; ++t) out[t] = line[first + t * dil];
        }
        std::fill(out + hi, out + k_last, 0.0f);
      }
    }
  }
}

}  // namespace

PackedB pack_filter_transposed(const float* w, int64_t M, int64_t CK) {
  return PackedB(w, CK, M, /*transposed=*/true);
}

void conv_few_positions_f32(const float* x, const PackedB& wt, float* y, const Window& win,
                            int64_t C, const float* bias, const ConvEpilogue& epilogue,
                            util::ThreadPool& pool) {
  const int64_t P = win.out_numel(), rows = wt.k(), M = wt.n();
  // Small (at most kFewPositionsMax rows of C*K and of M floats), kept per thread.
  thread_local std::vector<float> col_t, out_t;
  float* col = grow_only(col_t, static_cast<size_t>(P * rows));
  float* out = grow_only(out_t, static_cast<size_t>(P * M));
  im2row(x, C, win, col);
  gemm_f32(col, rows, wt, out, M, P, pool);
  for (int64_t m = 0; m < M; ++m) {
    float* row = y + m * P;
    for (int64_t p = 0; p < P; ++p) row[p] = out[p * M + m];
    epilogue.apply(row, P, bias ? bias[m] : 0.0f);
  }
}

}  // namespace bough::kernels
