// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// filter transform and the steps' order are under HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conv_winograd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "kernels/activation-inl.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_winograd.h"
#include "kernels/scratch.h"

// Once, outside the per-target namespaces: the dispatched functions share these.
#ifndef BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
#define BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
namespace bough::kernels {
// Where the steps keep their data. Tile (i, j) (i < th, j < tw) gives outputs tile*i ..
// tile*i + tile - 1 by the same of j, and reads the padded image's tile + 2 rows
// and columns from tile*i and tile*j. The tiles of a tile row are handled in whole vectors:
// tw_padded of them (the last few, past tw, are computed and never stored).
struct WinogradGeometry {
  int64_t tile, positions;  // positions = (tile + 2)^2
  bool narrow;              // vectors of 4 tiles instead of 8
  int64_t th, tw, tw_padded;
  int64_t width;  // of the padded image's rows
  int64_t OH, OW;
  int64_t IH = 0, IW = 0, top = 0, left = 0;  // the image, and where it sits in the padded one
};

// A band of tile rows [i0, i1), its n = (i1 - i0) * tw_padded tiles in order; the band's
// padded image rows tile*i0 .. tile*i1 + 1, `rows` of them per channel; its transformed
// image `positions` x C rows of n, one position's C rows `vnext` after the previous
// position's; its products `positions` x M rows of n, `next` after the previous position's.
struct WinogradBand {
  int64_t i0, i1, n, rows, vnext, next;
};
}  // namespace bough::kernels
#endif

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors of at most 8 tiles: a 16x16 output has rows of 8 tiles of 2x2, which would leave
// half of an AVX-512 vector empty and every store partial. Rows of 4 tiles of 4x4 (a 16x16
// output) take vectors of 4.
using D8 = hn::CappedTag<float, 8>;
using D4 = hn::CappedTag<float, 4>;

int64_t WinogradLanes(bool narrow) {
  return narrow ? static_cast<int64_t>(hn::Lanes(D4())) : static_cast<int64_t>(hn::Lanes(D8()));
}

// v + bias, activated as the epilogue says when it activates in registers (the others
// are left to the caller).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V BiasActivate(D d, V v, V bias, const ConvEpilogue& e) {
  v = hn::Add(v, bias);
  switch (e.register_activation()) {
    case Activation::Relu:
      return ReluKeepingNaN(d, v);
    case Activation::LeakyRelu:
      return hn::IfThenElse(hn::Lt(v, hn::Zero(d)), hn::Mul(v, hn::Set(d, e.alpha)), v);
    case Activation::Clip:
      return ClipKeepingNaN(d, v, hn::Set(d, e.alpha), hn::Set(d, e.beta));
    default:
      return v;
  }
}

// Stores the `lanes` pairs (or quadruples) of an output row interleaved at `out`, of which
// the first `cols` values are the output's.
template <class D, class... V>
HWY_INLINE void StoreRow(D d, float* out, int64_t cols, V... v) {
  constexpr size_t kCount = sizeof...(V);
  HWY_ALIGN float tmp[kCount * HWY_MAX_BYTES / sizeof(float)];
  float* to = cols == static_cast<int64_t>(kCount * hn::Lanes(d)) ? out : tmp;
  if constexpr (kCount == 2)
    hn::StoreInterleaved2(v..., d, to);
  else
    hn::StoreInterleaved4(v..., d, to);
  if (to == tmp) std::copy(tmp, tmp + cols, out);
}

// ---- F(2x2, 3x3): 4x4 tiles ----

// V = Bᵀ d B for channel c's tiles in the band, a vector of tiles of a tile row at a time:
// v[4a + b] goes to t[(4a + b) * vnext + c * n + tile].
void InputTransform2(const float* padded, float* t, int64_t c, const WinogradGeometry& g,
                     const WinogradBand& band) {
  const D8 d;
  using V = hn::Vec<D8>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t i = band.i0; i < band.i1; ++i)
    for (int64_t j = 0; j < g.tw_padded; j += lanes) {
      V w[4][4];  // d B: the four image rows, each transformed along its columns
      for (int r = 0; r < 4; ++r) {
        const float* p = padded + (c * band.rows + 2 * (i - band.i0) + r) * g.width + 2 * j;
        V c0, c1, c2, c3;  // the tiles' columns 0..3
        hn::LoadInterleaved2(d, p, c0, c1);
        hn::LoadInterleaved2(d, p + 2, c2, c3);
        w[r][0] = hn::Sub(c0, c2);
        w[r][1] = hn::Add(c1, c2);
        w[r][2] = hn::Sub(c2, c1);
        w[r][3] = hn::Sub(c1, c3);
      }
      float* out = t + c * band.n + (i - band.i0) * g.tw_padded + j;
      const int64_t next = band.vnext;  // from v[k] to v[k + 1]
      for (int b = 0; b < 4; ++b) {
        hn::StoreU(hn::Sub(w[0][b], w[2][b]), d, out + (0 + b) * next);
        hn::StoreU(hn::Add(w[1][b], w[2][b]), d, out + (4 + b) * next);
        hn::StoreU(hn::Sub(w[2][b], w[1][b]), d, out + (8 + b) * next);
        hn::StoreU(hn::Sub(w[1][b], w[3][b]), d, out + (12 + b) * next);
      }
    }
}

// An output channel's 2x2 blocks in the band (of its plane y) = Aᵀ m A of its products
// (products[(4a + b) * next + tile]), plus the bias, activated.
void OutputTransform2(const float* products, float* y, float bias, const ConvEpilogue& e,
                      const WinogradGeometry& g, const WinogradBand& band) {
  const D8 d;
  using V = hn::Vec<D8>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V b = hn::Set(d, bias);
  const int64_t next = band.next;
  for (int64_t i = band.i0; i < band.i1; ++i)
    for (int64_t j = 0; j < g.tw; j += lanes) {
      const float* in = products + (i - band.i0) * g.tw_padded + j;
      V s[4][2];  // Aᵀ m: the two output rows of each of the 4 columns
      for (int col = 0; col < 4; ++col) {
        const V m0 = hn::LoadU(d, in + col * next), m1 = hn::LoadU(d, in + (4 + col) * next);
        const V m2 = hn::LoadU(d, in + (8 + col) * next);
        const V m3 = hn::LoadU(d, in + (12 + col) * next);
        s[col][0] = hn::Add(hn::Add(m0, m1), m2);
        s[col][1] = hn::Sub(hn::Sub(m1, m2), m3);
      }
      const int64_t cols = std::min(2 * lanes, g.OW - 2 * j);  // outputs of this vector's tiles
      for (int r = 0; r < 2 && 2 * i + r < g.OH; ++r) {
        const V left = BiasActivate(d, hn::Add(hn::Add(s[0][r], s[1][r]), s[2][r]), b, e);
        const V right = BiasActivate(d, hn::Sub(hn::Sub(s[1][r], s[2][r]), s[3][r]), b, e);
        StoreRow(d, y + (2 * i + r) * g.OW + 2 * j, cols, left, right);
      }
    }
}

// ---- F(4x4, 3x3): 6x6 tiles ----

// Bᵀ x for one line of six values x0..x5 (rows of Bᵀ: [4 0 -5 0 1 0], [0 -4 -4 1 1 0],
// [0 4 -4 -1 1 0], [0 -2 -1 2 1 0], [0 2 -1 -2 1 0], [0 4 0 -5 0 1]).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void InputLine4(D d, const V* x, V* v) {
  const V four = hn::Set(d, 4.0f), minus4 = hn::Set(d, -4.0f), minus5 = hn::Set(d, -5.0f);
  const V a = hn::MulAdd(minus4, x[2], x[4]), b = hn::MulAdd(minus4, x[1], x[3]);
  const V c = hn::Sub(x[4], x[2]), e = hn::Add(hn::Sub(x[3], x[1]), hn::Sub(x[3], x[1]));
  v[0] = hn::MulAdd(four, x[0], hn::MulAdd(minus5, x[2], x[4]));
  v[1] = hn::Add(a, b);
  v[2] = hn::Sub(a, b);
  v[3] = hn::Add(c, e);
  v[4] = hn::Sub(c, e);
  v[5] = hn::MulAdd(four, x[1], hn::MulAdd(minus5, x[3], x[5]));
}

// Aᵀ x for one line of six products (rows of Aᵀ: [1 1 1 1 1 0], [0 1 -1 2 -2 0],
// [0 1 1 4 4 0], [0 1 -1 8 -8 1]).
template <class D, class V = hn::Vec<D>>
HWY_INLINE void OutputLine4(D d, const V* x, V* y) {
  const V sum12 = hn::Add(x[1], x[2]), diff12 = hn::Sub(x[1], x[2]);
  const V sum34 = hn::Add(x[3], x[4]), diff34 = hn::Sub(x[3], x[4]);
  y[0] = hn::Add(hn::Add(x[0], sum12), sum34);
  y[1] = hn::MulAdd(hn::Set(d, 2.0f), diff34, diff12);
  y[2] = hn::MulAdd(hn::Set(d, 4.0f), sum34, sum12);
  y[3] = hn::Add(hn::MulAdd(hn::Set(d, 8.0f), diff34, diff12), x[5]);
}

// V = Bᵀ d B as InputTransform2 does, for 6x6 tiles 4 apart: v[6a + b] goes to
// t[(6a + b) * vnext + c * n + tile].
template <class D>
void InputTransform4(D d, const float* padded, float* t, int64_t c, const WinogradGeometry& g,
                     const WinogradBand& band) {
  using V = hn::Vec<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t i = band.i0; i < band.i1; ++i)
    for (int64_t j = 0; j < g.tw_padded; j += lanes) {
      V w[6][6];  // d B: the six image rows, each transformed along its columns
      for (int r = 0; r < 6; ++r) {
        const float* p = padded + (c * band.rows + 4 * (i - band.i0) + r) * g.width + 4 * j;
        V x[8];  // the tiles' columns 0..5 (6 and 7 unused)
        hn::LoadInterleaved4(d, p, x[0], x[1], x[2], x[3]);
        hn::LoadInterleaved4(d, p + 4, x[4], x[5], x[6], x[7]);
        InputLine4(d, x, w[r]);
      }
      float* out = t + c * band.n + (i - band.i0) * g.tw_padded + j;
      for (int b = 0; b < 6; ++b) {
        const V column[6] = {w[0][b], w[1][b], w[2][b], w[3][b], w[4][b], w[5][b]};
        V v[6];
        InputLine4(d, column, v);
        for (int a = 0; a < 6; ++a) hn::StoreU(v[a], d, out + (6 * a + b) * band.vnext);
      }
    }
}

// An output channel's 4x4 blocks in the band as OutputTransform2's, of its products
// products[(6a + b) * next + tile].
template <class D>
void OutputTransform4(D d, const float* products, float* y, float bias, const ConvEpilogue& e,
                      const WinogradGeometry& g, const WinogradBand& band) {
  using V = hn::Vec<D>;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V b = hn::Set(d, bias);
  for (int64_t i = band.i0; i < band.i1; ++i)
    for (int64_t j = 0; j < g.tw; j += lanes) {
      const float* in = products + (i - band.i0) * g.tw_padded + j;
      V s[6][4];  // Aᵀ m: the four output rows of each of the 6 columns
      for (int col = 0; col < 6; ++col) {
        V x[6];
        for (int a = 0; a < 6; ++a) x[a] = hn::LoadU(d, in + (6 * a + col) * band.next);
        OutputLine4(d, x, s[col]);
      }
      const int64_t cols = std::min(4 * lanes, g.OW - 4 * j);  // outputs of this vector's tiles
      for (int r = 0; r < 4 && 4 * i + r < g.OH; ++r) {
        const V row[6] = {s[0][r], s[1][r], s[2][r], s[3][r], s[4][r], s[5][r]};
        V o[4];
        OutputLine4(d, row, o);
        for (V& v : o) v = BiasActivate(d, v, b, e);
        StoreRow(d, y + (4 * i + r) * g.OW + 4 * j, cols, o[0], o[1], o[2], o[3]);
      }
    }
}

// The steps for the geometry's tile and vector width.
void InputTransform(const float* padded, float* t, int64_t c, const WinogradGeometry& g,
                    const WinogradBand& band) {
  if (g.tile == 2) return InputTransform2(padded, t, c, g, band);
  if (g.narrow) return InputTransform4(D4(), padded, t, c, g, band);
  InputTransform4(D8(), padded, t, c, g, band);
}

void OutputTransform(const float* products, float* y, float bias, const ConvEpilogue& e,
                     const WinogradGeometry& g, const WinogradBand& band) {
  if (g.tile == 2) return OutputTransform2(products, y, bias, e, g, band);
  if (g.narrow) return OutputTransform4(D4(), products, y, bias, e, g, band);
  OutputTransform4(D8(), products, y, bias, e, g, band);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(WinogradLanes);
HWY_EXPORT(InputTransform);
HWY_EXPORT(OutputTransform);

namespace {

WinogradGeometry geometry(const std::vector<int64_t>& out, int64_t tile) {
  WinogradGeometry g;
  g.OH = out[0];
  g.OW = out[1];
  g.tile = tile;
  g.positions = (tile + 2) * (tile + 2);
  g.th = (g.OH + g.tile - 1) / g.tile;
  g.tw = (g.OW + g.tile - 1) / g.tile;
  g.narrow = g.tile == 4 && g.tw <= 4;
  const int64_t lanes = HWY_DYNAMIC_DISPATCH(WinogradLanes)(g.narrow);
  g.tw_padded = (g.tw + lanes - 1) / lanes * lanes;
  // A vector of tiles reads its tiles' columns (`tile` apart, tile + 2 wide) from its first
  // with deinterleaving loads of `tile` columns each: up to `tile` past the last tile's.
  g.width = g.tile * g.tw_padded + g.tile;
  return g;
}

// The multiply-adds per input and output channel pair of the whole image's products, with
// the lanes of partly used vectors counted: their cost.
int64_t product_work(const WinogradGeometry& g) {
  return g.positions * conv_direct_read(g.th * g.tw_padded);
}

// Output channels [m0, m1) (m0 a multiple of `block`) of tile rows [i0, i1) of x's
// convolution: their padded image rows, transforms and products, in the calling thread's
// buffers. Each thread pads its own rows: an image padded by the caller and read by a
// worker moved its cache lines between the cores on every run (perf, small_cnn's 16->32
// layer at 2 threads: the padding took 19 times its 1-thread time).
void convolve_band(const float* x, const float* filter, float* y, const WinogradGeometry& g,
                   int64_t i0, int64_t i1, int64_t m0, int64_t m1, int64_t C, int64_t M,
                   int64_t block, const float* bias, const ConvEpilogue& epilogue) {
  WinogradBand band;
  band.i0 = i0;
  band.i1 = i1;
  band.n = (i1 - i0) * g.tw_padded;
  band.rows = g.tile * (i1 - i0) + 2;
  // Rows and positions a cache line more apart than they need, so that the streams of each
  // transform, 16 KiB apart when the sizes are powers of two, do not all fall into the
  // same few sets of the L1 cache (small_cnn's 32->64 16x16 layer took 63 µs instead of 55).
  constexpr int64_t kLine = 64 / sizeof(float);
  const int64_t channels = m1 - m0;
  band.vnext = C * band.n + kLine;
  band.next = channels * band.n + kLine;
  thread_local std::vector<float> padded, transformed, products;
  // Zeros around the image and past it, up to whole vectors of tiles.
  float* image = grow_only(padded, static_cast<size_t>(C * band.rows * g.width));
  pad_planes(x, C, g.IH, g.IW, g.top, g.left, g.tile * i0, band.rows, g.width, image);
  // The products read up to conv_direct_read(n) past a row's start: into the next row, and
  // past the last one.
  float* t = grow_only(transformed,
                       static_cast<size_t>(g.positions * band.vnext + conv_direct_read(band.n)));
  float* p = grow_only(products, static_cast<size_t>(g.positions * band.next));
  for (int64_t c = 0; c < C; ++c) HWY_DYNAMIC_DISPATCH(InputTransform)(image, t, c, g, band);
  const int64_t blocked_size = (M + block - 1) / block * block * C;
  for (int64_t k = 0; k < g.positions; ++k)
    direct_product_f32(t + k * band.vnext, band.n, C, band.n, filter + k * blocked_size + m0 * C,
                       channels, p + k * band.next);
  for (int64_t m = m0; m < m1; ++m) {
    float* plane = y + m * g.OH * g.OW;
    HWY_DYNAMIC_DISPATCH(OutputTransform)
    (p + (m - m0) * band.n, plane, bias ? bias[m] : 0.0f, epilogue, g, band);
    if (!epilogue.in_registers())
      for (int64_t oh = g.tile * i0; oh < std::min(g.tile * i1, g.OH); ++oh)
        epilogue.activate(plane + oh * g.OW, g.OW);
  }
}

}  // namespace

int64_t winograd_tile(const std::vector<int64_t>& out) {
  return product_work(geometry(out, 4)) < product_work(geometry(out, 2)) ? 4 : 2;
}

WinogradForm winograd_form(const std::vector<int64_t>& out, int64_t tile) {
  const WinogradGeometry g = geometry(out, tile);
  return {tile, conv_direct_block(g.th * g.tw_padded)};
}

WinogradForm winograd_form(const std::vector<int64_t>& out) {
  return winograd_form(out, winograd_tile(out));
}

bool conv_winograd_pays(const Window& win, int64_t C, int64_t groups) {
  return win.rank() == 2 && groups == 1 && C >= kWinogradMinChannels && win.kernel[0] == 3 &&
         win.kernel[1] == 3 && win.stride[0] == 1 && win.stride[1] == 1 && win.dilation[0] == 1 &&
         win.dilation[1] == 1;
}

std::vector<float> winograd_filter(const float* w, int64_t M, int64_t C, const WinogradForm& form) {
  // U = G g Gᵀ, in double. F(2x2, 3x3): G's rows [1 0 0], [1/2 1/2 1/2], [1/2 -1/2 1/2],
  // [0 0 1]; F(4x4, 3x3): [1/4 0 0], [-1/6 -1/6 -1/6], [-1/6 1/6 -1/6], [1/24 1/12 1/6],
  // [1/24 -1/12 1/6], [0 0 1].
  static constexpr double G2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  static constexpr double G4[6][3] = {{0.25, 0, 0},
                                      {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                      {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                      {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                      {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                      {0, 0, 1}};
  const int side = static_cast<int>(form.tile) + 2, positions = side * side;
  const auto G = [&](int row, int col) { return side == 4 ? G2[row][col] : G4[row][col]; };
  std::vector<float> u(static_cast<size_t>(positions * M * C));  // u[(pos * M + m) * C + c]
  for (int64_t m = 0; m < M; ++m)
    for (int64_t c = 0; c < C; ++c) {
      const float* k = w + (m * C + c) * 9;
      double gk[6][3];  // G g
      for (int a = 0; a < side; ++a)
        for (int col = 0; col < 3; ++col)
          gk[a][col] = G(a, 0) * k[col] + G(a, 1) * k[3 + col] + G(a, 2) * k[6 + col];
      for (int a = 0; a < side; ++a)
        for (int b = 0; b < side; ++b)
          u[static_cast<size_t>(((side * a + b) * M + m) * C + c)] =
              static_cast<float>(gk[a][0] * G(b, 0) + gk[a][1] * G(b, 1) + gk[a][2] * G(b, 2));
    }
  const int64_t blocked_size = (M + form.block - 1) / form.block * form.block * C;
  std::vector<float> filter(static_cast<size_t>(positions * blocked_size));
  for (int64_t k = 0; k < positions; ++k) {
    const std::vector<float> b = block_filter(u.data() + k * M * C, M, C, form.block);
    std::copy(b.begin(), b.end(), filter.begin() + k * blocked_size);
  }
  return filter;
}

void conv_winograd_f32(const float* x, const float* filter, const WinogradForm& form, float* y,
                       const Window& win, int64_t C, int64_t M, const float* bias,
                       const ConvEpilogue& epilogue, util::ThreadPool& pool) {
  WinogradGeometry g = geometry(win.out, form.tile);
  g.IH = win.in[0];
  g.IW = win.in[1];
  g.top = win.pad_begin[0];
  g.left = win.pad_begin[1];
  // Threads take bands of whole tile rows, each in buffers of its own, and write disjoint
  // output rows. The filter was blocked for the products' rows of the whole image: a band
  // needs rows of as many tiles as give the same block (few tiles take more channels).
  const int64_t tiles = g.th * g.tw_padded, block = form.block;
  int64_t min_rows = 1;
  while (min_rows < g.th && conv_direct_block(min_rows * g.tw_padded) != block) ++min_rows;
  const int64_t row_grain = std::max(min_rows, util::grain_for(g.positions * M * C * g.tw_padded));
  const int64_t bands = std::clamp<int64_t>(g.th / row_grain, 1, pool.threads());
  const int64_t band_tiles = (g.th + bands - 1) / bands * g.tw_padded;
  const int64_t blocks = (M + block - 1) / block;
  if (blocks > 1 && (bands == 1 || conv_direct_read(band_tiles) > band_tiles * 9 / 8)) {
    // Too few tile rows for a band per thread, or bands so short that they would leave the
    // products' vectors partly empty (a 16x16 output by 4x4 tiles: 16 tiles, one AVX-512
    // vector; in two bands, two half-empty ones): threads take blocks of output channels
    // instead, each transforming the whole image. A long band's last partial vector wastes
    // little, and taking blocks there left a thread idle: det's 96 -> 24 channel 3x3 on
    // 240x80 (3 blocks, bands of 600 tiles read as 608) ran at 1.16 CPUs on 2 threads.
    pool.parallel_for(blocks, util::grain_for(g.positions * C * tiles * block),
                      [&](int64_t s, int64_t e) {
                        convolve_band(x, filter, y, g, 0, g.th, s * block, std::min(M, e * block),
                                      C, M, block, bias, epilogue);
                      });
    return;
  }
  pool.parallel_for(g.th, row_grain, [&](int64_t s, int64_t e) {
    convolve_band(x, filter, y, g, s, e, 0, M, C, M, block, bias, epilogue);
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
