#include "kernels/conv_tiles.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/conv_im2col.h"
#include "kernels/gemm_f32.h"
#include "kernels/scratch.h"

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
constexpr int64_t kSmallColumnFloats = int64_t{1} << 19;  // 2 MiB

// The output positions of a tile: as many as fit kTileFloats. But a column matrix of at most
// kSmallColumnFloats is cut into one tile per thread, so that each thread reads W once: a 1x3
// conv of 1024 to 64 channels over 120 positions read its 768 KiB W for each of 4 tiles of
// 32 positions and took 1.45x ONNX Runtime's time; in one tile, 0.85x of that at one
// thread, 0.52x at two (bench/conv-paths). (A small 1x1 conv is one tile, its image the
// column matrix, and its product is split over the pool instead.)
int64_t tile_positions(int64_t rows, int64_t P, bool pointwise, int threads) {
  if (!pointwise && rows * P <= kSmallColumnFloats) {
    const int64_t share = (P + threads - 1) / threads;
    return std::min(P, (share + kTileUnit - 1) / kTileUnit * kTileUnit);
  }
  const int64_t units = std::max<int64_t>(1, kTileFloats / std::max<int64_t>(1, rows) / kTileUnit);
  return std::min(P, units * kTileUnit);
}

// Output columns [ow0, ow1) of one image row's run for a tap: out[ow] (out is indexed by
// output column) = line[ow * sw] inside [lo, hi), the columns that read inside the image,
// and 0 outside it; line null: the tap's image row is in the padding.
void write_run(float* out, int64_t ow0, int64_t ow1, const float* line, int64_t sw, int64_t lo,
               int64_t hi) {
  if (!line) {
    std::fill(out + ow0, out + ow1, 0.0f);
    return;
  }
  const int64_t a = std::clamp(lo, ow0, ow1), b = std::clamp(hi, a, ow1);
  std::fill(out + ow0, out + a, 0.0f);
  if (sw == 1) {
    // memcpy's overlapping vector moves: a loop's scalar tail costs more on the 15-16
    // element rows of a small image.
    std::memcpy(out + a, line + a, static_cast<size_t>(b - a) * sizeof(float));
  } else {
    for (int64_t ow = a; ow < b; ++ow) out[ow] = line[ow * sw];
  }
  std::fill(out + b, out + ow1, 0.0f);
}

// A run of output positions of one output row that falls inside one panel of the packed
// operand: output row oh, output columns [ow, ow + len), at column `offset` of panel `panel`.
struct Piece {
  int64_t oh, ow, len, panel, offset;
};

// The pieces of output positions [p0, p1), worked out once per tile (not per row of the
// column matrix: their divisions cost as much as the copies of 16-position rows).
void tile_pieces(const Window& win, int64_t p0, int64_t p1, int64_t width,
                 std::vector<Piece>& pieces) {
  const int64_t OW = win.out[1];
  pieces.clear();
  int64_t oh = p0 / OW, ow = p0 % OW, panel = 0, offset = 0;
  for (int64_t p = p0; p < p1;) {
    const int64_t len = std::min({p1 - p, OW - ow, width - offset});
    pieces.push_back({oh, ow, len, panel, offset});
    p += len;
    ow += len;
    offset += len;
    if (ow == OW) ow = 0, ++oh;
    if (offset == width) offset = 0, ++panel;
  }
}

// im2col of output positions [p0, p1) for 2-D windows (the common case), written straight
// into each group's packed GEMM operand (`packed[g]`, reshaped to C/groups*K x p1 - p0) with
// no column matrix in between, piece by piece (see tile_pieces).
void im2col_2d_packed(const float* x, int64_t C, int64_t groups, const Window& win,
                      const std::vector<Piece>& pieces, PackedB* packed) {
  const int64_t IH = win.in[0], IW = win.in[1], OW = win.out[1];
  const int64_t KH = win.kernel[0], KW = win.kernel[1], sh = win.stride[0], sw = win.stride[1];
  const int64_t dh = win.dilation[0], dw = win.dilation[1];
  const int64_t ph = win.pad_begin[0], pw = win.pad_begin[1];
  const int64_t cg = C / groups;
  for (int64_t c = 0; c < C; ++c) {
    const float* image = x + c * IH * IW;
    PackedB& pb = packed[c / cg];
    for (int64_t kh = 0; kh < KH; ++kh)
      for (int64_t kw = 0; kw < KW; ++kw) {
        const int64_t kk = (c % cg) * KH * KW + kh * KW + kw;
        float* const row = pb.row(kk);
        const int64_t step = pb.panel_step(kk);
        const int64_t base = kw * dw - pw;  // input column of output column 0
        // Output columns [lo, hi) read inside the image: 0 <= ow * sw + base < IW.
        const int64_t lo = std::min(OW, base >= 0 ? 0 : (-base + sw - 1) / sw);
        const int64_t hi = std::max(lo, std::min(OW, (IW - base + sw - 1) / sw));
        for (const Piece& q : pieces) {
          const int64_t ih = q.oh * sh - ph + kh * dh;
          const float* line = ih < 0 || ih >= IH ? nullptr : image + ih * IW + base;
          float* out = row + q.panel * step + q.offset - q.ow;  // indexed by output column
          write_run(out, q.ow, q.ow + q.len, line, sw, lo, hi);
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
  const int64_t tile = tile_positions(rows, P, win.is_pointwise(), pool.threads());
  const int64_t tiles = (P + tile - 1) / tile;
  // A pointwise conv in one tile reads the image itself as its column matrix.
  const bool image_is_columns = win.is_pointwise() && tile == P;
  const int64_t grain = util::grain_for(tile * rows * mg);
  pool.parallel_for(tiles, grain, [&](int64_t t0, int64_t t1) {
    // Per thread, kept for the thread's life: a tile's buffers are small (kTileFloats, or a
    // share of a small column matrix).
    thread_local std::vector<float> col;
    thread_local std::vector<PackedB> packed;
    thread_local std::vector<Piece> pieces;
    packed.resize(static_cast<size_t>(groups));
    for (int64_t t = t0; t < t1; ++t) {
      const int64_t p0 = t * tile, p1 = std::min(P, p0 + tile), n = p1 - p0;
      if (win.rank() == 2 && !image_is_columns) {
        for (PackedB& pb : packed) pb.reshape(group_rows, n);
        tile_pieces(win, p0, p1, packed[0].width(), pieces);
        im2col_2d_packed(x, C, groups, win, pieces, packed.data());
      } else {
        const float* columns = x;
        if (!image_is_columns) {
          float* cols = grow_only(col, static_cast<size_t>(rows * n));
          im2col(x, C, win, p0, p1, cols);
          columns = cols;
        }
        for (int64_t g = 0; g < groups; ++g)
          packed[static_cast<size_t>(g)].pack(columns + g * group_rows * n, group_rows, n, false);
      }
      // Inside a loop split over the pool the product runs on this chunk's thread; a loop
      // left on one thread (one tile: a small image's 1x1 conv) lets the product split.
      for (int64_t g = 0; g < groups; ++g)
        gemm_f32(w + g * mg * group_rows, group_rows, packed[static_cast<size_t>(g)],
                 y + g * mg * P + p0, P, mg, pool);
      if (bias || epilogue.activation != Activation::None)
        for (int64_t m = 0; m < M; ++m) epilogue.apply(y + m * P + p0, n, bias ? bias[m] : 0.0f);
    }
  });
}

}  // namespace bough::kernels
