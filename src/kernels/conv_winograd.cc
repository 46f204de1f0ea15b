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

// Once, outside the per-target namespaces: the dispatched functions share these.
#ifndef BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
#define BOUGH_KERNELS_CONV_WINOGRAD_GEOMETRY
namespace bough::kernels {
// Where the steps keep their data. Tile (i, j) (i < th, j < tw) gives outputs 2i..2i+1 by
// 2j..2j+1 and reads the padded image's rows 2i..2i+3 and columns 2j..2j+3.
struct WinogradGeometry {
  int64_t th, tw, tiles;  // tiles = th * tw
  int64_t rows, width;    // the padded image: rows x width per channel
  int64_t ld;             // the transformed image: 16 x C rows of `tiles`, `ld` apart
  int64_t OH, OW;
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

// V = Bᵀ d B for channel c's tiles, a vector of tiles of a tile row at a time:
// v[4a + b] goes to t[((4a + b) * C + c) * ld + tile]. A vector may run past the row's last
// tile into the next row's first (overwritten when that row is done) or, on the last row,
// into the slack of ld.
void InputTransform(const float* padded, float* t, int64_t c, int64_t C,
                    const WinogradGeometry& g) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t i = 0; i < g.th; ++i)
    for (int64_t j = 0; j < g.tw; j += lanes) {
      V w[4][4];  // d B: the four image rows, each transformed along its columns
      for (int r = 0; r < 4; ++r) {
        const float* p = padded + (c * g.rows + 2 * i + r) * g.width + 2 * j;
        V c0, c1, c2, c3;  // the tiles' columns 0..3
        hn::LoadInterleaved2(d, p, c0, c1);
        hn::LoadInterleaved2(d, p + 2, c2, c3);
        w[r][0] = hn::Sub(c0, c2);
        w[r][1] = hn::Add(c1, c2);
        w[r][2] = hn::Sub(c2, c1);
        w[r][3] = hn::Sub(c1, c3);
      }
      float* out = t + c * g.ld + i * g.tw + j;
      const int64_t next = C * g.ld;  // from v[k] to v[k + 1]
      for (int b = 0; b < 4; ++b) {
        hn::StoreU(hn::Sub(w[0][b], w[2][b]), d, out + (0 + b) * next);
        hn::StoreU(hn::Add(w[1][b], w[2][b]), d, out + (4 + b) * next);
        hn::StoreU(hn::Sub(w[2][b], w[1][b]), d, out + (8 + b) * next);
        hn::StoreU(hn::Sub(w[1][b], w[3][b]), d, out + (12 + b) * next);
      }
    }
}

// Output channel m's 2x2 blocks = Aᵀ m A of its products (products[(4a + b) * next + m *
// tiles + tile]), plus the bias, activated (a Sigmoid is left to the caller).
void OutputTransform(const float* products, int64_t next, float* y, int64_t m, float bias,
                     const ConvEpilogue& e, const WinogradGeometry& g) {
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
  for (int64_t i = 0; i < g.th; ++i)
    for (int64_t j = 0; j < g.tw; j += lanes) {
      const float* in = products + m * g.tiles + i * g.tw + j;
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
  g.tiles = g.th * g.tw;
  const int64_t lanes = HWY_DYNAMIC_DISPATCH(WinogradLanes)();
  // A vector of tiles reads the columns of `lanes` tiles (2 apart, 4 wide) from its first.
  g.rows = 2 * g.th + 2;
  g.width = 2 * ((g.tw + lanes - 1) / lanes * lanes) + 2;
  g.ld = g.tiles + lanes;
  return g;
}

}  // namespace

int64_t winograd_block(const std::vector<int64_t>& out) {
  return conv_direct_block(geometry(out).tiles);
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
  const WinogradGeometry g = geometry(win.out);
  const int64_t IH = win.in[0], IW = win.in[1], pt = win.pad_begin[0], pl = win.pad_begin[1];
  const int64_t lanes = HWY_DYNAMIC_DISPATCH(WinogradLanes)();
  // The image with its padding as zeros (and zeros past it up to whole vectors of tiles).
  thread_local std::vector<float> padded, transformed, products;
  padded.assign(static_cast<size_t>(C * g.rows * g.width), 0.0f);
  for (int64_t c = 0; c < C; ++c)
    for (int64_t ih = 0; ih < IH; ++ih)
      std::copy(x + (c * IH + ih) * IW, x + (c * IH + ih + 1) * IW,
                padded.data() + (c * g.rows + ih + pt) * g.width + pl);
  // The products read up to conv_direct_read(tiles) past a row's start; the output
  // transform a vector past the last tile.
  transformed.resize(static_cast<size_t>(16 * C * g.ld + conv_direct_read(g.tiles)));
  // One position's products (M x tiles) to the next's: a cache line more than they need, so
  // that the output transform's 16 streams, 16 KiB apart when M x tiles is a power of two,
  // do not all fall into the same few sets of the L1 cache (small_cnn's 32->64 16x16 layer took
  // 63 µs instead of 55).
  const int64_t next = M * g.tiles + 64 / static_cast<int64_t>(sizeof(float));
  products.resize(static_cast<size_t>(16 * next + lanes));
  const float* image = padded.data();
  float* t = transformed.data();
  float* p = products.data();
  // Each step's items write disjoint outputs: a channel's transformed rows, a position's
  // products, an output channel.
  pool.parallel_for_work(C, 16 * g.ld * 8, [&](int64_t s, int64_t e) {
    for (int64_t c = s; c < e; ++c) HWY_DYNAMIC_DISPATCH(InputTransform)(image, t, c, C, g);
  });
  const int64_t block = winograd_block(win.out);
  const int64_t blocked_size = (M + block - 1) / block * block * C;
  pool.parallel_for_work(16, M * C * g.tiles, [&](int64_t s, int64_t e) {
    for (int64_t k = s; k < e; ++k)
      direct_product_f32(t + k * C * g.ld, g.ld, C, g.tiles, filter + k * blocked_size, M,
                         p + k * next);
  });
  pool.parallel_for_work(M, 16 * g.tiles * 8, [&](int64_t s, int64_t e) {
    for (int64_t m = s; m < e; ++m) {
      HWY_DYNAMIC_DISPATCH(OutputTransform)(p, next, y, m, bias ? bias[m] : 0.0f, epilogue, g);
      if (epilogue.activation == Activation::Sigmoid)  // the others were applied in registers
        epilogue.apply(y + m * g.OH * g.OW, g.OH * g.OW, 0.0f);
    }
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
