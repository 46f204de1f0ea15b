// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// target-independent part (padding, splitting over threads, the epilogue) is under HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conv_direct.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <vector>

#include "kernels/activation-inl.h"
#include "kernels/conv_direct.h"
#include "kernels/scratch.h"

// Once, outside the per-target namespaces: the dispatched functions share this signature.
#ifndef BOUGH_KERNELS_CONV_DIRECT_ROW_ARGS
#define BOUGH_KERNELS_CONV_DIRECT_ROW_ARGS
namespace bough::kernels {
// What one output row of a block of output channels needs.
struct RowArgs {
  const float* image;      // the padded image (see conv_direct_f32) at the row's first tap
  const int64_t* offsets;  // taps: tap t reads the padded image at offsets[t] from there
  int64_t taps;
  const float* w;  // the block's weights, tap-major: channel m's tap t at w[t * stride + m]
  int64_t stride;
  const float* bias;      // the block's first output channel's bias, or null
  ConvEpilogue epilogue;  // applied in registers when in_registers() (see conv_direct_f32)
  float* y;               // the block's first output channel's row; channel m at y + m * P
  int64_t P, OW;
};
}  // namespace bough::kernels
#endif

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

int64_t DirectLanes() { return static_cast<int64_t>(hn::Lanes(D())); }

// The first `cols` lanes of v into c.
HWY_INLINE void StoreCols(D d, V v, float* HWY_RESTRICT c, int64_t cols) {
  if (cols >= static_cast<int64_t>(hn::Lanes(d))) return hn::StoreU(v, d, c);
  HWY_ALIGN float tmp[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, tmp);
  std::copy(tmp, tmp + std::max<int64_t>(cols, 0), c);
}

// Output row oh of MB output channels, NV vectors of positions at a time. The loads of a
// partial last step read past the row's end: into the next padded row (lanes never stored)
// or, on the image's last row, into the slack after it (see conv_direct_f32).
template <int MB, int NV>
void RowBlock(const RowArgs& a) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t ow = 0; ow < a.OW; ow += NV * lanes) {
    V acc[MB][NV];
    for (int m = 0; m < MB; ++m)
      for (int v = 0; v < NV; ++v) acc[m][v] = hn::Set(d, a.bias ? a.bias[m] : 0.0f);
    const float* src = a.image + ow;
    const float* wt = a.w;
    for (int64_t t = 0; t < a.taps; ++t, wt += a.stride) {
      V in[NV];
      for (int v = 0; v < NV; ++v) in[v] = hn::LoadU(d, src + a.offsets[t] + v * lanes);
      for (int m = 0; m < MB; ++m) {
        const V wv = hn::Set(d, wt[m]);
        for (int v = 0; v < NV; ++v) acc[m][v] = hn::MulAdd(wv, in[v], acc[m][v]);
      }
    }
    const V zero = hn::Zero(d), alpha = hn::Set(d, a.epilogue.alpha);
    const V beta = hn::Set(d, a.epilogue.beta);
    // The others are applied after the row is stored (conv_direct_f32).
    const Activation in_registers = a.epilogue.register_activation();
    for (int m = 0; m < MB; ++m)
      for (int v = 0; v < NV; ++v) {
        V r = acc[m][v];
        switch (in_registers) {
          case Activation::Relu:
            r = ReluKeepingNaN(d, r);
            break;
          case Activation::LeakyRelu:
            r = hn::IfThenElse(hn::Lt(r, zero), hn::Mul(r, alpha), r);
            break;
          case Activation::Clip:
            r = ClipKeepingNaN(d, r, alpha, beta);
            break;
          default:  // None; the others come after (conv_direct_f32)
            break;
        }
        StoreCols(d, r, a.y + m * a.P + ow + v * lanes, a.OW - ow - v * lanes);
      }
  }
}

// RowBlock for a run-time block of 1..MB output channels.
template <int MB, int NV>
void RowOf(const RowArgs& a, int64_t channels) {
  if constexpr (MB > 1) {
    if (channels < MB) return RowOf<MB - 1, NV>(a, channels);
  }
  RowBlock<MB, NV>(a);
}

// Rows of at most one vector: blocks of channels by one vector; longer rows: by two vectors
// (on a 16-wide row, half of a two-vector step was waste). The accumulators, the image
// vectors and a broadcast fit the register file: 32 vectors with AVX-512, 16 below.
constexpr int kOneVectorBlock = HWY_MAX_BYTES >= 64 ? 16 : 12;
constexpr int kTwoVectorBlock = HWY_MAX_BYTES >= 64 ? 8 : 6;

int64_t BlockChannels(int64_t OW) {
  return OW <= DirectLanes() ? kOneVectorBlock : kTwoVectorBlock;
}

// The output positions RowBlock computes at a time on rows of `OW`.
int64_t RowStep(int64_t OW) { return (OW <= DirectLanes() ? 1 : 2) * DirectLanes(); }

void Row(const RowArgs& a, int64_t channels) {
  if (a.OW <= DirectLanes()) return RowOf<kOneVectorBlock, 1>(a, channels);
  RowOf<kTwoVectorBlock, 2>(a, channels);
}

// pad_planes, in vectors: an image's rows are short (16-64 floats), and with a library call
// per row's copy and per pad's clearing the padding took 7 % of small_cnn's samples. A run
// of at least a vector ends with a vector that overlaps the one before (below AVX-512 a
// masked load reads the whole vector, past the end of the image); shorter ones go element
// by element.
void Zeros(float* HWY_RESTRICT p, int64_t n) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (n < lanes) {
    for (int64_t i = 0; i < n; ++i) p[i] = 0.0f;
    return;
  }
  for (int64_t i = 0; i + lanes <= n; i += lanes) hn::StoreU(hn::Zero(d), d, p + i);
  hn::StoreU(hn::Zero(d), d, p + n - lanes);
}
void Copy(const float* HWY_RESTRICT src, float* HWY_RESTRICT p, int64_t n) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  if (n < lanes) {
    for (int64_t i = 0; i < n; ++i) p[i] = src[i];
    return;
  }
  for (int64_t i = 0; i + lanes <= n; i += lanes) hn::StoreU(hn::LoadU(d, src + i), d, p + i);
  hn::StoreU(hn::LoadU(d, src + n - lanes), d, p + n - lanes);
}
void PadPlanes(const float* x, int64_t C, int64_t IH, int64_t IW, int64_t top, int64_t left,
               int64_t first_row, int64_t rows, int64_t width, float* out) {
  const int64_t end = first_row + rows;
  // The window's rows that hold image rows: [inside, outside).
  const int64_t inside = std::clamp(top, first_row, end);
  const int64_t outside = std::clamp(top + IH, inside, end);
  // A row at least a vector wide is cleared whole, in vectors, before its image row is
  // copied in: its pads are narrower than a vector.
  const bool clear_rows = width >= static_cast<int64_t>(hn::Lanes(D()));
  for (int64_t c = 0; c < C; ++c, x += IH * IW, out += rows * width) {
    Zeros(out, (inside - first_row) * width);
    for (int64_t r = inside; r < outside; ++r) {
      float* row = out + (r - first_row) * width;
      if (clear_rows) {
        Zeros(row, width);
      } else {
        Zeros(row, left);
        Zeros(row + left + IW, width - left - IW);
      }
      Copy(x + (r - top) * IW, row + left, IW);
    }
    Zeros(out + (outside - first_row) * width, (end - outside) * width);
  }
}

// The zero-padded plane of x (IH x IW, placed at row `top` and column `left`) in `rows` rows,
// each split by column phase for stride s: padded column c at dst[row * s * run + (c % s) *
// run + c / s], the rest of each run zeros. Straight from the image (stride 2: in vectors,
// by a de-interleaving load), with no padded copy in between. Writes up to a vector past
// the last row. With `clear` false (stride 2 only), dst already holds the zeros: only the
// image's values are written.
void PadSplit(const float* x, int64_t IH, int64_t IW, int64_t top, int64_t left, int64_t rows,
              int64_t s, int64_t run, bool clear, float* dst) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t r = 0; r < rows; ++r, dst += s * run) {
    const int64_t ih = r - top;
    if (ih < 0 || ih >= IH) {
      if (clear) std::fill(dst, dst + s * run, 0.0f);
      continue;
    }
    const float* src = x + ih * IW;
    if (s == 2) {
      // The row's zeros, in whole vectors (past the row's end: into the next row, written
      // after, or the slack), then image columns 2j to run left % 2 and 2j + 1 to run
      // (left + 1) % 2 by de-interleaving loads, the last partial pair of vectors through
      // a zero-padded copy and masked stores (the loads may not run past the image).
      if (clear)
        for (int64_t k = 0; k < 2 * run; k += lanes) hn::StoreU(hn::Zero(d), d, dst + k);
      float* even = dst + left % 2 * run + left / 2;
      float* odd = dst + (left + 1) % 2 * run + (left + 1) / 2;
      int64_t done = 0;
      V e, o;
      for (; done + 2 * lanes <= IW; done += 2 * lanes) {
        hn::LoadInterleaved2(d, src + done, e, o);
        hn::StoreU(e, d, even + done / 2);
        hn::StoreU(o, d, odd + done / 2);
      }
      const int64_t rest = IW - done;
      if (rest == 0) continue;
      HWY_ALIGN float tail[2 * HWY_MAX_BYTES / sizeof(float)] = {};
      std::copy(src + done, src + IW, tail);
      hn::LoadInterleaved2(d, tail, e, o);
      hn::BlendedStore(e, hn::FirstN(d, static_cast<size_t>((rest + 1) / 2)), d, even + done / 2);
      hn::BlendedStore(o, hn::FirstN(d, static_cast<size_t>(rest / 2)), d, odd + done / 2);
      continue;
    }
    // Other strides: image column i goes to padded column i + left, that is run
    // (i + left) % s at (i + left) / s; run by run, the zeros around the image's columns,
    // then those columns.
    for (int64_t p = 0; p < s; ++p) {
      const int64_t first = ((p - left) % s + s) % s;  // the run's first image column
      const int64_t begin = (first + left) / s;
      const int64_t count = first < IW ? (IW - first + s - 1) / s : 0;
      float* out = dst + p * run;
      std::fill(out, out + begin, 0.0f);
      std::fill(out + begin + count, out + run, 0.0f);
      for (int64_t i = first, j = begin; i < IW; i += s, ++j) out[j] = src[i];
    }
  }
}
}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(BlockChannels);
HWY_EXPORT(RowStep);
HWY_EXPORT(Row);
HWY_EXPORT(PadPlanes);
HWY_EXPORT(PadSplit);
HWY_EXPORT(DirectLanes);

bool conv_direct_pays(const Window& win, int64_t C, int64_t groups) {
  if (win.rank() != 2 || groups != 1 || win.is_pointwise()) return false;
  for (size_t d = 0; d < 2; ++d)
    if (win.stride[d] > 2 || (win.stride[d] == 2 && win.kernel[d] == 1)) return false;
  return C * win.kernel_numel() <= kDirectMaxTaps;
}

int64_t conv_direct_block(int64_t OW) { return HWY_DYNAMIC_DISPATCH(BlockChannels)(OW); }

std::vector<float> block_filter(const float* w, int64_t M, int64_t taps, int64_t block) {
  std::vector<float> blocked(static_cast<size_t>((M + block - 1) / block * taps * block), 0.0f);
  for (int64_t m0 = 0; m0 < M; m0 += block) {
    float* dst = blocked.data() + m0 * taps;  // block m0 / block
    const int64_t channels = std::min(block, M - m0);
    for (int64_t t = 0; t < taps; ++t, dst += block)
      for (int64_t m = 0; m < channels; ++m) dst[m] = w[(m0 + m) * taps + t];
  }
  return blocked;
}

int64_t conv_direct_read(int64_t n) {
  const int64_t step = HWY_DYNAMIC_DISPATCH(RowStep)(n);
  return (n + step - 1) / step * step;
}

void pad_planes(const float* x, int64_t C, int64_t IH, int64_t IW, int64_t top, int64_t left,
                int64_t first_row, int64_t rows, int64_t width, float* out) {
  HWY_DYNAMIC_DISPATCH(PadPlanes)(x, C, IH, IW, top, left, first_row, rows, width, out);
}

void pad_plane_split(const float* x, int64_t IH, int64_t IW, int64_t top, int64_t left,
                     int64_t rows, int64_t s, int64_t run, bool clear, float* dst) {
  HWY_DYNAMIC_DISPATCH(PadSplit)(x, IH, IW, top, left, rows, s, run, clear, dst);
}

void direct_product_f32(const float* v, int64_t ld, int64_t k, int64_t n, const float* blocked,
                        int64_t M, float* y) {
  std::vector<int64_t> offsets(static_cast<size_t>(k));
  for (int64_t t = 0; t < k; ++t) offsets[static_cast<size_t>(t)] = t * ld;
  const int64_t block = conv_direct_block(n);
  for (int64_t m0 = 0; m0 < M; m0 += block) {
    const RowArgs a{v, offsets.data(), k, blocked + m0 * k, block, nullptr, {}, y + m0 * n, n, n};
    HWY_DYNAMIC_DISPATCH(Row)(a, std::min(block, M - m0));
  }
}

void conv_direct_f32(const float* x, const float* blocked, float* y, const Window& win, int64_t C,
                     int64_t M, const float* bias, const ConvEpilogue& epilogue,
                     util::ThreadPool& pool) {
  const int64_t IH = win.in[0], IW = win.in[1], OH = win.out[0], OW = win.out[1];
  const int64_t pt = win.pad_begin[0], pl = win.pad_begin[1];
  const int64_t sh = win.stride[0], sw = win.stride[1];
  const int64_t KH = win.kernel[0], KW = win.kernel[1];
  const int64_t dh = win.dilation[0], dw = win.dilation[1];
  const int64_t taps = C * KH * KW, P = OH * OW;
  // At column stride 2 a padded row is stored as its even columns, then its odd ones
  // (pad_plane_split), each `phase` wide, so that every tap reads contiguous positions.
  const int64_t padded_width = IW + pl + win.pad_end[1];
  const int64_t phase = (padded_width + sw - 1) / sw, row_width = sw * phase;
  // A row's last step reads up to `slack` positions past the row's last output: into the
  // next row, and past the image's end on its last row.
  const int64_t step = HWY_DYNAMIC_DISPATCH(RowStep)(OW);
  const int64_t slack = (OW + step - 1) / step * step - OW;
  // pad_plane_split writes up to a vector past a plane's last row.
  const int64_t overrun = sw == 1 ? 0 : HWY_DYNAMIC_DISPATCH(DirectLanes)();
  const int64_t block = conv_direct_block(OW), blocks = (M + block - 1) / block;
  pool.parallel_for(OH * blocks, util::grain_for(OW * block * taps), [&](int64_t s, int64_t e) {
    // The padded image rows that output rows [oh0, oh1) read, with zeros for the padding
    // (the slack's lanes are never stored), in buffers each thread keeps for itself: one
    // padded by the caller and read by a worker moved its cache lines between the cores on
    // every run (perf, small_cnn at 2 threads: the padding took 19 times its 1-thread time).
    const int64_t oh0 = s / blocks, oh1 = (e - 1) / blocks + 1;
    const int64_t rows = (oh1 - 1 - oh0) * sh + (KH - 1) * dh + 1;
    thread_local std::vector<float> padded;
    float* image =
        grow_only(padded, static_cast<size_t>(C * rows * row_width + std::max(slack, overrun)));
    if (sw == 1) {
      pad_planes(x, C, IH, IW, pt, pl, oh0 * sh, rows, row_width, image);
    } else {  // plane by plane, in order: each overrun lands in the next plane's first row
      for (int64_t c = 0; c < C; ++c)
        pad_plane_split(x + c * IH * IW, IH, IW, pt - oh0 * sh, pl, rows, sw, phase, true,
                        image + c * rows * row_width);
    }
    // Where each tap reads, relative to the output position, in those rows.
    thread_local std::vector<int64_t> offsets;
    offsets.clear();
    for (int64_t c = 0; c < C; ++c)
      for (int64_t kh = 0; kh < KH; ++kh)
        for (int64_t kw = 0; kw < KW; ++kw)
          offsets.push_back((c * rows + kh * dh) * row_width + kw * dw % sw * phase + kw * dw / sw);
    for (int64_t item = s; item < e; ++item) {
      const int64_t oh = item / blocks, b = item % blocks, m0 = b * block;
      const int64_t channels = std::min(block, M - m0);
      const RowArgs a{image + (oh - oh0) * sh * row_width,
                      offsets.data(),
                      taps,
                      blocked + b * taps * block,
                      block,
                      bias ? bias + m0 : nullptr,
                      epilogue,
                      y + m0 * P + oh * OW,
                      P,
                      OW};
      HWY_DYNAMIC_DISPATCH(Row)(a, channels);
      if (!epilogue.in_registers())
        for (int64_t m = 0; m < channels; ++m) epilogue.activate(a.y + m * P, OW);
    }
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
