#include "kernels/conv_few_positions.h"

#include <algorithm>
#include <vector>

#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_winograd.h"
#include "kernels/scratch.h"

namespace bough::kernels {

namespace {

// dst (cols x rows) = src (rows x cols)ᵀ, both row-major. Written in order, read in
// columns: the rows here are 256-2048 bytes long, and stores that far apart cost a little
// more than loads (perf on det_32x128: this path's own samples 5.3-5.8 % of the run, 6.0-6.2
// % with the loops the other way).
void transpose(const float* src, int64_t rows, int64_t cols, float* dst) {
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i) dst[j * rows + i] = src[i * cols + j];
}

// The transposed column matrix: row p (of win.out_numel()) holds, for each channel c and
// kernel tap k, the image value under tap k of output position p (0 in the padding), at
// column c * K + k. The runs are a few taps long (1 to 5 on an image network): written by
// plain loops, a call to memcpy and two to memset per run cost more than the run
// (issue 34: three quarters of this path's time on det_32x128's 1x1 layers over 16
// positions).
void im2row(const float* x, int64_t C, const Window& win, float* rows_out) {
  const size_t r = win.rank();
  const int64_t P = win.out_numel(), K = win.kernel_numel(), in = win.in_numel();
  if (win.is_pointwise()) return transpose(x, C, P, rows_out);  // xᵀ
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
          for (int64_t t = 0; t < k_last; ++t) out[t] = 0.0f;
          continue;
        }
        const float* line = x + c * in + row * in_last;
        for (int64_t t = 0; t < lo; ++t) out[t] = 0.0f;
        for (int64_t t = lo; t < hi; ++t) out[t] = line[first + t * dil];
        for (int64_t t = hi; t < k_last; ++t) out[t] = 0.0f;
      }
    }
  }
}

}  // namespace

bool conv_few_positions_pays(const Window& win, int64_t C, int64_t filters, int64_t groups) {
  if (groups != 1 || filters < kFewPositionsMinFilters) return false;
  const int64_t positions = win.out_numel();
  if (positions <= kFewPositionsMax) return true;
  // Not in place of the direct or Winograd path: a 3x3 of 96 channels on 4 x 6 positions,
  // transposed, took 1.7 times the Winograd path's time; of 256 channels, 0.83 at 1 thread
  // but 1.38 at 2.
  return positions <= kFewPositionsOverGemmMax && !conv_winograd_pays(win, C, groups) &&
         !conv_direct_pays(win, C, groups) && !conv_depthwise_pays(win, C, groups);
}

PackedB pack_filter_transposed(const float* w, int64_t M, int64_t CK) {
  return PackedB(w, CK, M, /*transposed=*/true);
}

void conv_few_positions_f32(const float* x, const PackedB& wt, float* y, const Window& win,
                            int64_t C, const float* bias, const ConvEpilogue& epilogue,
                            util::ThreadPool& pool) {
  const int64_t P = win.out_numel(), rows = wt.k(), M = wt.n();
  // Small (at most kFewPositionsOverGemmMax rows of C*K and of M floats), kept per thread.
  thread_local std::vector<float> col_t, out_t;
  float* col = grow_only(col_t, static_cast<size_t>(P * rows));
  float* out = grow_only(out_t, static_cast<size_t>(P * M));
  im2row(x, C, win, col);
  // yᵀ with the bias added in the GEMM's store, then the activation over it whole (a row of
  // P outputs per channel holds 1 to 16 values: the epilogue's vector loops would barely
  // start), then y = (yᵀ)ᵀ.
  gemm_f32(col, rows, wt, out, M, P, pool, bias);
  epilogue.activate(out, P * M);
  transpose(out, P, M, y);
}

}  // namespace bough::kernels
