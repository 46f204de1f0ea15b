#include "kernels/conv_tiles.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/conv_im2col.h"
#include "kernels/gemm_f32.h"

namespace bough::kernels {

namespace {

// The column matrix of a tile holds at most this many floats (64 KiB), unless a single
// panel of columns needs more: it and the packed copy then sit in L2 together with the
// filter, while the GEMM streams the packed panels through L1.
constexpr int64_t kTileFloats = int64_t{1} << 14;
// Tiles are whole multiples of this many output positions: the GEMM's panel width on every
// target (32 columns with AVX-512, 16 with AVX2), so only a row's last tile has a partial
// panel.
constexpr int64_t kTileUnit = 32;

int64_t tile_positions(int64_t rows, int64_t P) {
  const int64_t units = std::max<int64_t>(1, kTileFloats / std::max<int64_t>(1, rows) / kTileUnit);
  return std::min(P, units * kTileUnit);
}

// im2col of output positions [p0, p1) for 2-D windows (the common case), written for
// short output rows: the generic im2col's per-run bookkeeping costs as much as the copy
// when a row is 16-64 positions long.
void im2col_2d(const float* x, int64_t C, const Window& win, int64_t p0, int64_t p1, float* col) {
  const int64_t n = p1 - p0, IH = win.in[0], IW = win.in[1], OW = win.out[1];
  const int64_t KH = win.kernel[0], KW = win.kernel[1], sh = win.stride[0], sw = win.stride[1];
  const int64_t dh = win.dilation[0], dw = win.dilation[1];
  const int64_t ph = win.pad_begin[0], pw = win.pad_begin[1];
  // The tile's first position, divided once: a division per output row costs more than
  // copying a row of 16 positions.
  const int64_t oh0 = p0 / OW, first_ow = p0 % OW;
  float* dst = col;
  for (int64_t c = 0; c < C; ++c) {
    const float* image = x + c * IH * IW;
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw, dst += n) {
        const int64_t base = kw * dw - pw;  // input column of output column 0
        // Output columns [lo, hi) read inside the image: 0 <= ow * sw + base < IW.
        const int64_t lo = std::min(OW, base >= 0 ? 0 : (-base + sw - 1) / sw);
        const int64_t hi = std::max(lo, std::min(OW, (IW - base + sw - 1) / sw));
        for (int64_t oh = oh0, ow0 = first_ow, p = p0; p < p1; ++oh, ow0 = 0) {
          const int64_t len = std::min(p1 - p, OW - ow0);
          const int64_t ih = oh * sh - ph + kh * dh;
          float* out = dst + (p - p0) - ow0;  // indexed by output column
          if (ih < 0 || ih >= IH) {
            for (int64_t ow = ow0; ow < ow0 + len; ++ow) out[ow] = 0;
          } else {
            const float* line = image + ih * IW + base;
            const int64_t a = std::clamp(lo, ow0, ow0 + len), b = std::clamp(hi, a, ow0 + len);
            for (int64_t ow = ow0; ow < a; ++ow) out[ow] = 0;
            if (sw == 1) {
              // memcpy's overlapping vector moves: a loop's scalar tail costs more on the
              // 15-16 element rows of a small image.
              std::memcpy(out + a, line + a, static_cast<size_t>(b - a) * sizeof(float));
            } else {
              for (int64_t ow = a; ow < b; ++ow) out[ow] = line[ow * sw];
            }
            for (int64_t ow = b; ow < ow0 + len; ++ow) out[ow] = 0;
          }
          p += len;
        }
      }
  }
}

}  // namespace

void conv_tiles_f32(const float* x, const float* w, float* y, const Window& win, int64_t C,
                    int64_t M, int64_t groups, const float* bias, const ConvEpilogue& epilogue,
                    util::ThreadPool& pool) {
  const int64_t K = win.kernel_numel(), P = win.out_numel();
  const int64_t cg = C / groups, mg = M / groups, rows = C * K, group_rows = cg * K;
  const int64_t tile = tile_positions(rows, P), tiles = (P + tile - 1) / tile;
  // A pointwise conv in one tile reads the image itself as its column matrix.
  const bool direct = win.is_pointwise() && tile == P;
  const int64_t grain = util::grain_for(tile * rows * mg);
  pool.parallel_for(tiles, grain, [&](int64_t t0, int64_t t1) {
    // Per thread, kept for the thread's life: a tile's buffers are small (see kTileFloats).
    thread_local std::vector<float> col;
    thread_local PackedB packed;
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t p0 = t * tile, p1 = std::min(P, p0 + tile), n = p1 - p0;
      const float* columns = x;
      if (!direct) {
        col.resize(static_cast<size_t>(rows * n));
        if (win.rank() == 2)
          im2col_2d(x, C, win, p0, p1, col.data());
        else
          im2col(x, C, win, p0, p1, col.data());
        columns = col.data();
      }
      for (int64_t g = 0; g < groups; ++g) {
        packed.pack(columns + g * group_rows * n, group_rows, n, false);
        gemm_f32_serial(w + g * mg * group_rows, group_rows, packed, y + g * mg * P + p0, P, mg);
      }
      if (bias || epilogue.activation != Activation::None)
        for (int64_t m = 0; m < M; ++m) epilogue.apply(y + m * P + p0, n, bias ? bias[m] : 0.0f);
    }
  });
}

}  // namespace bough::kernels
