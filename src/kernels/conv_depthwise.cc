// Compiled once per vector target by Highway (foreach_target re-includes this file); the
// target-independent part (padding, splitting over threads) is under HWY_ONCE.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conv_depthwise.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/scratch.h"

// Once, outside the per-target namespaces: the dispatched functions share this signature.
#ifndef BOUGH_KERNELS_CONV_DEPTHWISE_PLANE_ARGS
#define BOUGH_KERNELS_CONV_DEPTHWISE_PLANE_ARGS
namespace bough::kernels {
// What one output plane needs.
struct PlaneArgs {
  const float* plane;      // the padded, phase-split input plane (see conv_depthwise_f32)
  const int64_t* offsets;  // taps: tap t of output (oh, ow) reads plane[oh * row_step + ow +
  int64_t taps;            // offsets[t]]
  int64_t row_step;
  int64_t KH;        // the kernel's rows (taps / KH columns)
  bool rows_shared;  // the vertical stride equals the vertical dilation: output row oh's
                     // tap row kh reads plane row oh + kh (in row_steps)
  int64_t image_begin, image_end;  // with rows_shared: the plane rows (in row_steps) that hold
                                   // the image's values; the others are the padding's zeros
  const float* w;                  // the taps' weights
  float bias;
  ConvEpilogue epilogue;  // applied to each row after its sums (which start at the bias)
  float* y;               // OH x OW
  int64_t OH, OW;
};
}  // namespace bough::kernels
#endif

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;
using V = hn::Vec<D>;

// Output positions summed at a time on long rows: four vectors (32 with AVX2, 64 with
// AVX-512); shorter rows take as many vectors as they need.
constexpr int kVectors = 4;

int64_t DepthwiseStep() { return kVectors * static_cast<int64_t>(hn::Lanes(D())); }

// A block's sums: output columns [ow, ow + NV vectors) of ROWS rows of OW at out; a row's
// partial last vector stores only its lanes inside the row.
template <int ROWS, int NV>
HWY_INLINE void StoreBlock(const V (&acc)[ROWS][NV], float* out, int64_t OW, int64_t ow) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int r = 0; r < ROWS; ++r)
    for (int v = 0; v < NV; ++v) {
      const int64_t at = ow + v * lanes, left = OW - at;
      if (left >= lanes) {
        hn::StoreU(acc[r][v], d, out + r * OW + at);
      } else if (left > 0) {
        hn::BlendedStore(acc[r][v], hn::FirstN(d, static_cast<size_t>(left)), d, out + r * OW + at);
      }
    }
}

// Output rows [oh0, oh0 + ROWS) of one plane, NV vectors of each at a time, TAPS taps (0:
// a.taps, weights broadcast at each use): each tap's weight is broadcast once for ROWS x NV
// accumulators, independent chains of FMAs. (With two vectors of one row at a time, each
// tap waited for the last one's FMA latency: a one-node model of 512 5x5 planes of 2x40
// took 82 us, 59 with these blocks.) The loads of a row's partial last step read past the
// row's end, into the next padded row or the slack after the plane; those lanes are never
// stored.
template <int TAPS, int ROWS, int NV>
void RowsOf(const PlaneArgs& a, const V* wv, const int64_t* off, int64_t oh0) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const int64_t taps = TAPS ? TAPS : a.taps;
  const V bias = hn::Set(d, a.bias);
  const float* row = a.plane + oh0 * a.row_step;
  float* out = a.y + oh0 * a.OW;
  for (int64_t ow = 0; ow < a.OW; ow += NV * lanes) {
    V acc[ROWS][NV];
    for (int r = 0; r < ROWS; ++r)
      for (int v = 0; v < NV; ++v) acc[r][v] = bias;
    for (int64_t t = 0; t < taps; ++t) {
      const float* src = row + ow;
      V wt;
      if constexpr (TAPS > 0) {
        src += off[t];
        wt = wv[t];
      } else {
        src += a.offsets[t];
        wt = hn::Set(d, a.w[t]);
      }
      for (int r = 0; r < ROWS; ++r)
        for (int v = 0; v < NV; ++v)
          acc[r][v] = hn::MulAdd(wt, hn::LoadU(d, src + r * a.row_step + v * lanes), acc[r][v]);
    }
    StoreBlock<ROWS, NV>(acc, out, a.OW, ow);
  }
  if (a.epilogue.activation != Activation::None) a.epilogue.apply(out, ROWS * a.OW, 0.0f);
}

// One output plane, NV vectors of each row at a time, ROWS rows at a time (8 chains of FMAs,
// enough to cover their latency, within AVX2's 16 registers), then the rest.
template <int TAPS, int NV>
void PlaneBy(const PlaneArgs& a, const V* wv, const int64_t* off) {
  constexpr int ROWS = NV <= 2 ? 4 : 2;
  int64_t oh = 0;
  for (; oh + ROWS <= a.OH; oh += ROWS) RowsOf<TAPS, ROWS, NV>(a, wv, off, oh);
  switch (a.OH - oh) {
    case 3:
      if constexpr (ROWS > 3) return RowsOf<TAPS, 3, NV>(a, wv, off, oh);
      return;
    case 2:
      if constexpr (ROWS > 2) return RowsOf<TAPS, 2, NV>(a, wv, off, oh);
      return;
    case 1:
      return RowsOf<TAPS, 1, NV>(a, wv, off, oh);
    default:
      return;
  }
}

// One output plane, TAPS taps, rows of up to three vectors in one step each (a 40-wide row
// with AVX-512: 3 vectors, where steps of 2 computed 4), longer ones in steps of kVectors.
template <int TAPS>
void PlaneOf(const PlaneArgs& a) {
  const D d;
  V wv[TAPS ? TAPS : 1];
  int64_t off[TAPS ? TAPS : 1];
  if constexpr (TAPS > 0) {
    for (int t = 0; t < TAPS; ++t) {
      wv[t] = hn::Set(d, a.w[t]);
      off[t] = a.offsets[t];
    }
  }
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  switch ((a.OW + lanes - 1) / lanes) {
    case 1:
      return PlaneBy<TAPS, 1>(a, wv, off);
    case 2:
      return PlaneBy<TAPS, 2>(a, wv, off);
    case 3:
      return PlaneBy<TAPS, 3>(a, wv, off);
    default:
      return PlaneBy<TAPS, kVectors>(a, wv, off);
  }
}

// Accumulators of a shared-rows block: AVX-512 (and the other targets with 32 registers)
// holds 12 beside a tap row's weights and the loaded vectors; AVX2 and SSE hold 8.
#if HWY_ARCH_X86 && HWY_TARGET > HWY_AVX3
constexpr int kSharedAcc = 8;
#else
constexpr int kSharedAcc = 12;
#endif

// Output rows [oh0, oh0 + ROWS) of a KH x KW kernel whose output rows read consecutive
// plane rows (a.rows_shared): plane row oh0 + p feeds output rows oh0 + p - kh, so each of
// its vectors is loaded once per kernel column and summed into every output row of the
// block it feeds (ROWS + KH - 1 loads for ROWS x KH FMAs, where RowsOf loads once per FMA).
// On 256 planes of 3x240 with 5x5 taps RowsOf's loads were the bound: a load per FMA,
// most of them across a cache line. Kernel columns are the outer loop, so only a column's
// KH weights are live. Reads past a row's end as RowsOf does. With SKIP, plane rows outside
// [live0, live1) are skipped: SharedPlaneOf passes the image's rows when every weight is
// finite (a padding row then adds only zeros), else all rows. Only planes of one block
// take SKIP (maps of 1-4 rows, where the padding is 2-4 of KH + 3 plane rows): its branch
// on every plane row cost more than the rows it skipped on taller maps (with it on every
// block, 40x60 planes with 3x3 taps took 1.45x as long; on the first and last blocks only,
// 20x30 planes with 5x5 taps 1.2x).
template <int KH, int KW, int ROWS, int NV, bool SKIP>
void SharedRowsOf(const PlaneArgs& a, const V* wv, const int64_t* col, int64_t oh0, int64_t live0,
                  int64_t live1) {
  const D d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  bool live[ROWS + KH - 1];
  for (int p = 0; p < ROWS + KH - 1; ++p) live[p] = !SKIP || (oh0 + p >= live0 && oh0 + p < live1);
  const V bias = hn::Set(d, a.bias);
  const float* row = a.plane + oh0 * a.row_step;
  float* out = a.y + oh0 * a.OW;
  for (int64_t ow = 0; ow < a.OW; ow += NV * lanes) {
    V acc[ROWS][NV];
    for (int r = 0; r < ROWS; ++r)
      for (int v = 0; v < NV; ++v) acc[r][v] = bias;
    for (int kw = 0; kw < KW; ++kw) {
      // Unrolled whole, so that every accumulator is a register (GCC 12 kept them on the
      // stack and did 12 FMAs per iteration otherwise).
#pragma GCC unroll 16
      for (int p = 0; p < ROWS + KH - 1; ++p) {
        if constexpr (SKIP) {
          if (!live[p]) continue;
        }
        const float* src = row + p * a.row_step + col[kw] + ow;
        V x[NV];
#pragma GCC unroll 16
        for (int v = 0; v < NV; ++v) x[v] = hn::LoadU(d, src + v * lanes);
#pragma GCC unroll 16
        for (int kh = 0; kh < KH; ++kh) {
          const int r = p - kh;  // the output row of the block it feeds, if inside
          if (r < 0 || r >= ROWS) continue;
#pragma GCC unroll 16
          for (int v = 0; v < NV; ++v) acc[r][v] = hn::MulAdd(wv[kh * KW + kw], x[v], acc[r][v]);
        }
      }
    }
    StoreBlock<ROWS, NV>(acc, out, a.OW, ow);
  }
  if (a.epilogue.activation != Activation::None) a.epilogue.apply(out, ROWS * a.OW, 0.0f);
}

// ROWS output rows of a shared-rows plane, as many vectors of each at a time as the
// accumulators allow (at most NVMAX: the row's vectors, or kVectors).
template <int KH, int KW, int NVMAX, int ROWS>
void SharedRowsBy(const PlaneArgs& a, const V* wv, const int64_t* col, int64_t oh, int64_t live0,
                  int64_t live1) {
  constexpr int NV = std::min(NVMAX, std::max(1, kSharedAcc / ROWS));
  if (oh == 0 && ROWS == a.OH) {
    SharedRowsOf<KH, KW, ROWS, NV, true>(a, wv, col, oh, live0, live1);
  } else {
    SharedRowsOf<KH, KW, ROWS, NV, false>(a, wv, col, oh, live0, live1);
  }
}

// A shared-rows plane in blocks of 4 rows, then the 1-3 left (maps of 2 and 3 rows are one
// block of their height).
template <int KH, int KW, int NVMAX>
void SharedPlaneBy(const PlaneArgs& a, const V* wv, const int64_t* col, int64_t live0,
                   int64_t live1) {
  int64_t oh = 0;
  for (; oh + 4 <= a.OH; oh += 4) SharedRowsBy<KH, KW, NVMAX, 4>(a, wv, col, oh, live0, live1);
  switch (a.OH - oh) {
    case 3:
      return SharedRowsBy<KH, KW, NVMAX, 3>(a, wv, col, oh, live0, live1);
    case 2:
      return SharedRowsBy<KH, KW, NVMAX, 2>(a, wv, col, oh, live0, live1);
    case 1:
      return SharedRowsBy<KH, KW, NVMAX, 1>(a, wv, col, oh, live0, live1);
    default:
      return;
  }
}

// A KH x KW plane whose output rows share plane rows: the weights as broadcasts, the
// columns' offsets (kernel row 0's taps), a step of up to kVectors vectors. The padding's
// rows are skipped when every weight is finite (0 * w adds nothing; a NaN or infinite one
// makes them NaN, so then they are summed): on a map of 3 rows with 5x5 taps and pads 2,
// 4 of the 7 plane rows, 30 of the 75 multiply-adds of a column of outputs.
template <int KH, int KW>
void SharedPlaneOf(const PlaneArgs& a) {
  const D d;
  V wv[KH * KW];
  bool finite = true;
  for (int t = 0; t < KH * KW; ++t) {
    wv[t] = hn::Set(d, a.w[t]);
    finite = finite && std::isfinite(a.w[t]);
  }
  const int64_t live0 = finite ? a.image_begin : 0;
  const int64_t live1 = finite ? a.image_end : a.OH + KH;
  const int64_t* col = a.offsets;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  switch ((a.OW + lanes - 1) / lanes) {
    case 1:
      return SharedPlaneBy<KH, KW, 1>(a, wv, col, live0, live1);
    case 2:
      return SharedPlaneBy<KH, KW, 2>(a, wv, col, live0, live1);
    case 3:
      return SharedPlaneBy<KH, KW, 3>(a, wv, col, live0, live1);
    default:
      return SharedPlaneBy<KH, KW, kVectors>(a, wv, col, live0, live1);
  }
}

// The plane for its number of taps: 3x3 and 5x5 with their weights in registers, and 3x5
// and 1x3, which 5x5 and 3x3 kernels become over maps of 2 rows and 1 row once the taps that
// read only the padding are cropped (kernels/conv_crop.h). Kernels of several rows whose
// output rows share plane rows (stride 1, no dilation) take the shared-rows blocks.
void Plane(const PlaneArgs& a) {
  if (a.rows_shared) {
    if (a.KH == 3 && a.taps == 9) return SharedPlaneOf<3, 3>(a);
    if (a.KH == 5 && a.taps == 25) return SharedPlaneOf<5, 5>(a);
    if (a.KH == 3 && a.taps == 15) return SharedPlaneOf<3, 5>(a);
  }
  if (a.taps == 9) return PlaneOf<9>(a);
  if (a.taps == 25) return PlaneOf<25>(a);
  if (a.taps == 15) return PlaneOf<15>(a);
  if (a.taps == 3) return PlaneOf<3>(a);
  PlaneOf<0>(a);
}
}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(DepthwiseStep);
HWY_EXPORT(Plane);

bool conv_depthwise_pays(const Window& win, int64_t C, int64_t groups) {
  return win.rank() == 2 && groups == C;
}

void conv_depthwise_f32(const float* x, const float* w, float* y, const Window& win, int64_t C,
                        int64_t M, const float* bias, const ConvEpilogue& epilogue,
                        util::ThreadPool& pool) {
  const int64_t IH = win.in[0], IW = win.in[1], OH = win.out[0], OW = win.out[1];
  const int64_t KH = win.kernel[0], KW = win.kernel[1], taps = KH * KW;
  const int64_t sh = win.stride[0], sw = win.stride[1];
  const int64_t dh = win.dilation[0], dw = win.dilation[1];
  const int64_t pt = win.pad_begin[0], pl = win.pad_begin[1];
  // The zero-padded plane (every row and column any tap reads), then its columns by phase:
  // a row of `sw` runs of `run` floats, column c at run c % sw, position c / sw. Output
  // column ow's tap kw reads column ow * sw + kw * dw: run (kw * dw) % sw, position
  // ow + (kw * dw) / sw, so a block of consecutive outputs reads consecutive floats.
  const int64_t rows = std::max(pt + IH + win.pad_end[0], (OH - 1) * sh + (KH - 1) * dh + 1);
  const int64_t width = std::max(pl + IW + win.pad_end[1], (OW - 1) * sw + (KW - 1) * dw + 1);
  const int64_t run = (width + sw - 1) / sw, pitch = sw * run;
  std::vector<int64_t> offsets;
  for (int64_t kh = 0; kh < KH; ++kh)
    for (int64_t kw = 0; kw < KW; ++kw)
      offsets.push_back(kh * dh * pitch + (kw * dw) % sw * run + kw * dw / sw);
  // A row's last step reads up to a step past the row's last output (never stored lanes).
  const int64_t slack = HWY_DYNAMIC_DISPATCH(DepthwiseStep)();
  const int64_t mult = M / C, P = OH * OW;
  // The plane rows, in strides, that hold the image (rows pt .. pt + IH - 1 of the plane):
  // for the shared-rows blocks, which skip the others when the weights are finite.
  const int64_t image_begin = (pt + sh - 1) / sh, image_end = (pt + IH + sh - 1) / sh;
  // The padding is the same zeros for every channel: for strides 1 and 2 the plane is
  // cleared once per thread's share of the channels, and each channel then writes only its
  // image's values over the last one's (on det_32x128's 2x8 maps with 5x5 kernels, the
  // zeros are two thirds of the padded plane; padding and clearing each plane took 4-5 % of
  // its run). Other strides pad each plane whole.
  const bool clear_once = sw <= 2;
  pool.parallel_for(C, util::grain_for(mult * P * taps), [&](int64_t s, int64_t e) {
    thread_local std::vector<float> padded;
    // The plane starts on a cache line (16 floats): where malloc put the scratch decided
    // which taps' loads split lines, and so a case's time (5x5 stride 2 on 40x60: 0.229 or
    // 0.246 ms for one build's calling thread and worker).
    float* plane = grow_only(padded, static_cast<size_t>(rows * pitch + slack + 15));
    plane += (16 - reinterpret_cast<uintptr_t>(plane) / sizeof(float) % 16) % 16;
    if (clear_once) std::fill(plane, plane + rows * pitch, 0.0f);
    for (int64_t c = s; c < e; ++c) {
      const float* image = x + c * IH * IW;
      if (sw == 1) {
        for (int64_t ih = 0; ih < IH; ++ih)
          std::copy(image + ih * IW, image + (ih + 1) * IW, plane + (pt + ih) * pitch + pl);
      } else {
        pad_plane_split(image, IH, IW, pt, pl, rows, sw, run, !clear_once, plane);
      }
      for (int64_t m = c * mult; m < (c + 1) * mult; ++m) {
        const PlaneArgs a{plane,        offsets.data(),
                          taps,         sh * pitch,
                          KH,           sh == dh,
                          image_begin,  image_end,
                          w + m * taps, bias ? bias[m] : 0.0f,
                          epilogue,     y + m * P,
                          OH,           OW};
        HWY_DYNAMIC_DISPATCH(Plane)(a);
      }
    }
  });
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
