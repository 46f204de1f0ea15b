// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// filter transform and the steps' order are under HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conv_winograd.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "kernels/conv_direct.h"
#include "kernels/conv_winograd.h"
#include "kernels/scratch.h"

// Once, outside the per-target namespaces: the dispatched functions share these.
#ifndef BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
#define BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
namespace bough::kernels {
// Where the steps keep their data. Tile (i, j) (i < th, j < tw) gives outputs 2i..2i+1 by
// 2j..2j+1 and reads the padded image's rows 2i..2i+3 and columns 2j..2j+3. The tiles of a
// tile row are handled in whole vectors: tw_padded of them (the last few, past tw, are
// computed and never stored).
struct WinogradGeometry {
  int64_t th, tw, tw_padded;
  int64_t width;  // of the padded image's rows
  int64_t OH, OW;
  int64_t IH = 0, IW = 0, top = 0, left = 0;  // the image, and where it sits in the padded one
};

// A band of tile rows [i0, i1), its n = (i1 - i0) * tw_padded tiles in order; the band's
// padded image rows 2 i0 .. 2 i1 + 1, `rows` of them per channel; its transformed image
// 16 x C rows of n, one position's C rows `vnext` after the previous position's; its
// products 16 x M rows of n, `next` after the previous position's.
struct WinogradBand {
  int64_t i0, i1, n, rows, vnext, next;
};
}  // namespace bough::kernels
#endif

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Vectors of at most 8 tiles: a 16x16 output has rows of 8 tiles, which would leave half
// of an AVX-512 vector empty and every store partial.
using D = hn::CappedTag<float, 8>;
using V = hn::Vec<D>;

int64_t WinogradLanes() { return static_cast<int64_t>(hn::Lanes(D())); }

// V = Bᵀ d B for channel c's tiles in the band, a vector of tiles of a tile row at a time:
// v[4a + b] goes to t[(4a + b) * vnext + c * n + tile].
void InputTransform(const float* padded, float* t, int64_t c, const WinogradGeometry& g,
                    const WinogradBand& band) {
  const D d;
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

// Output channel m's 2x2 blocks in the band = Aᵀ m A of its products
// (products[(4a + b) * next + m * n + tile]), plus the bias, activated (a Sigmoid is left
// to the caller).
void OutputTransform(const float* products, float* y, int64_t m, float bias, const ConvEpilogue& e,
                     const WinogradGeometry& g, const WinogradBand& band) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const V b = hn::Set(d, bias), zero = hn::Zero(d);
  const V alpha = hn::Set(d, e.alpha), beta = hn::Set(d, e.beta);
  const auto activate = [&](V v) {
    switch (e.activation) {
      case Activation::Relu:
        return hn::Max(v, zero);
      case Activation::LeakyRelu:
        return hn::IfThenElse(hn::Lt(v, zero), hn::Mul(v, alpha), v);
      case Activation::Clip:
        return hn::Min(hn::Max(v, alpha), beta);
      default:  // None; a Sigmoid comes after
        return v;
    }
  };
  HWY_ALIGN float tmp[2 * HWY_MAX_BYTES / sizeof(float)];
  const int64_t next = band.next;
  for (int64_t i = band.i0; i < band.i1; ++i)
    for (int64_t j = 0; j < g.tw; j += lanes) {
      const float* in = products + m * band.n + (i - band.i0) * g.tw_padded + j;
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
        const V left = activate(hn::Add(hn::Add(hn::Add(s[0][r], s[1][r]), s[2][r]), b));
        const V right = activate(hn::Add(hn::Sub(hn::Sub(s[1][r], s[2][r]), s[3][r]), b));
        float* out = y + m * g.OH * g.OW + (2 * i + r) * g.OW + 2 * j;
        if (cols == 2 * lanes) {
          hn::StoreInterleaved2(left, right, d, out);
        } else {
          hn::StoreInterleaved2(left, right, d, tmp);
          std::copy(tmp, tmp + cols, out);
        }
      }
    }
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(WinogradLanes);
HWY_EXPORT(InputTransform);
HWY_EXPORT(OutputTransform);

namespace {

WinogradGeometry geometry(const std::vector<int64_t>& out) {
  WinogradGeometry g;
  g.OH = out[0];
  g.OW = out[1];
  g.th = (g.OH + 1) / 2;
  g.tw = (g.OW + 1) / 2;
  const int64_t lanes = HWY_DYNAMIC_DISPATCH(WinogradLanes)();
  g.tw_padded = (g.tw + lanes - 1) / lanes * lanes;
  // A vector of tiles reads the columns of `lanes` tiles (2 apart, 4 wide) from its first.
  g.width = 2 * g.tw_padded + 2;
  return g;
}

// Tile rows [i0, i1) of x's convolution: their padded image rows, transforms and products,
// in the calling thread's buffers. Each thread pads its own rows: an image padded by the
// caller and read by a worker moved its cache lines between the cores on every run (perf,
// small_cnn's 16->32 layer at 2 threads: the padding took 19 times its 1-thread time).
void convolve_band(const float* x, const float* filter, float* y, const WinogradGeometry& g,
                   int64_t i0, int64_t i1, int64_t C, int64_t M, int64_t block, const float* bias,
                   const ConvEpilogue& epilogue) {
  WinogradBand band;
  band.i0 = i0;
  band.i1 = i1;
  band.n = (i1 - i0) * g.tw_padded;
  band.rows = 2 * (i1 - i0) + 2;
  // Rows and positions a cache line more apart than they need, so that the 16 streams of
  // each transform, 16 KiB apart when the sizes are powers of two, do not all fall into the
  // same few sets of the L1 cache (small_cnn's 32->64 16x16 layer took 63 µs instead of 55).
  constexpr int64_t kLine = 64 / sizeof(float);
  band.vnext = C * band.n + kLine;
  band.next = M * band.n + kLine;
  thread_local std::vector<float> padded, transformed, products;
  // Zeros around the image and past it, up to whole vectors of tiles.
  float* image = grow_only(padded, static_cast<size_t>(C * band.rows * g.width));
  pad_planes(x, C, g.IH, g.IW, g.top, g.left, 2 * i0, band.rows, g.width, image);
  // The products read up to conv_direct_read(n) past a row's start: into the next row, and
  // past the last one.
  float* t =
      grow_only(transformed, static_cast<size_t>(16 * band.vnext + conv_direct_read(band.n)));
  float* p = grow_only(products, static_cast<size_t>(16 * band.next));
  for (int64_t c = 0; c < C; ++c) HWY_DYNAMIC_DISPATCH(InputTransform)(image, t, c, g, band);
  const int64_t blocked_size = (M + block - 1) / block * block * C;
  for (int64_t k = 0; k < 16; ++k)
    direct_product_f32(t + k * band.vnext, band.n, C, band.n, filter + k * blocked_size, M,
                       p + k * band.next);
  for (int64_t m = 0; m < M; ++m) {
    HWY_DYNAMIC_DISPATCH(OutputTransform)(p, y, m, bias ? bias[m] : 0.0f, epilogue, g, band);
    if (epilogue.activation == Activation::Sigmoid)  // the others were applied in registers
      for (int64_t oh = 2 * i0; oh < std::min(2 * i1, g.OH); ++oh)
        epilogue.apply(y + (m * g.OH + oh) * g.OW, g.OW, 0.0f);
  }
}

}  // namespace

int64_t winograd_block(const std::vector<int64_t>& out) {
  const WinogradGeometry g = geometry(out);
  return conv_direct_block(g.th * g.tw_padded);
}

bool conv_winograd_pays(const Window& win, int64_t C, int64_t groups) {
  return win.rank() == 2 && groups == 1 && C >= kWinogradMinChannels && win.kernel[0] == 3 &&
         win.kernel[1] == 3 && win.stride[0] == 1 && win.stride[1] == 1 && win.dilation[0] == 1 &&
         win.dilation[1] == 1;
}
std::vector<float> winograd_filter(const float* w, int64_t M, int64_t C,
                                   const std::vector<int64_t>& out) {
  // U = G g Gᵀ with G = [1 0 0; 1/2 1/2 1/2; 1/2 -1/2 1/2; 0 0 1], in double.
  static constexpr double G[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};
  std::vector<float> u(static_cast<size_t>(16 * M * C));  // u[((4a + b) * M + m) * C + c]
  for (int64_t m = 0; m < M; ++m)
    for (int64_t c = 0; c < C; ++c) {
      const float* k = w + (m * C + c) * 9;
      double gk[4][3];  // G g
      for (int a = 0; a < 4; ++a)
        for (int col = 0; col < 3; ++col)
          gk[a][col] = G[a][0] * k[col] + G[a][1] * k[3 + col] + G[a][2] * k[6 + col];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          u[static_cast<size_t>(((4 * a + b) * M + m) * C + c)] =
              static_cast<float>(gk[a][0] * G[b][0] + gk[a][1] * G[b][1] + gk[a][2] * G[b][2]);
    }
  const int64_t block = winograd_block(out);
  const int64_t blocked_size = (M + block - 1) / block * block * C;
  std::vector<float> filter(static_cast<size_t>(16 * blocked_size));
  for (int64_t k = 0; k < 16; ++k) {
    const std::vector<float> b = block_filter(u.data() + k * M * C, M, C, block);
    std::copy(b.begin(), b.end(), filter.begin() + k * blocked_size);
  }
  return filter;
}

void conv_winograd_f32(const float* x, const float* filter, float* y, const Window& win, int64_t C,
                       int64_t M, const float* bias, const ConvEpilogue& epilogue,
                       util::ThreadPool& pool) {
  WinogradGeometry g = geometry(win.out);
  g.IH = win.in[0];
  g.IW = win.in[1];
  g.top = win.pad_begin[0];
  g.left = win.pad_begin[1];
  // Threads take bands of whole tile rows, each in buffers of its own, and write disjoint
  // output rows. The filter was blocked for the products' rows of the whole image: a band
  // needs rows of as many tiles as give the same block (few tiles take more channels).
  const int64_t block = winograd_block(win.out);
  int64_t min_rows = 1;
  while (min_rows < g.th && conv_direct_block(min_rows * g.tw_padded) != block) ++min_rows;
  const int64_t row_work = 16 * M * C * g.tw_padded;  // multiply-adds of a tile row
  pool.parallel_for(g.th, std::max(min_rows, util::grain_for(row_work)), [&](int64_t s, int64_t e) {
    convolve_band(x, filter, y, g, s, e, C, M, block, bias, epilogue);
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
