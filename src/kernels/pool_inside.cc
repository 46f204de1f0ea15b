// kernels::pool_inside_rows_f32 and inside_window. The vector loops are compiled once per
// vector target by Highway (foreach_target re-includes this file).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/pool_inside.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
// foreach_target must come first.
#include <hwy/highway.h>

#include "kernels/pool_inside.h"

HWY_BEFORE_NAMESPACE();
namespace bough::kernels::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<float>;

// std::max(acc, v) (v when acc < v, so a NaN tap never wins) or acc + v.
template <bool Max, class V>
HWY_INLINE V Fold(V acc, V v) {
  if constexpr (Max)
    return hn::IfThenElse(hn::Lt(acc, v), v, acc);
  else
    return hn::Add(acc, v);
}

// The outputs [j, j + Lanes(d)) of an output row of the window g with column stride kStride
// (1 or 2); with stride 2 each pair of taps is one de-interleaving load of two vectors, the
// even and the odd columns.
template <bool Max, int64_t kStride, class DV>
HWY_INLINE void Outputs(DV d, const float* HWY_RESTRICT row, float* HWY_RESTRICT out,
                        const InsideWindow& g, int64_t j) {
  using V = hn::Vec<DV>;
  V acc = hn::Set(d, Max ? pool_lowest<float>() : 0.0f);
  for (int64_t r = 0; r < g.kh; ++r) {
    const float* p = row + r * g.iw + j * kStride;
    if constexpr (kStride == 1) {
      for (int64_t c = 0; c < g.kw; ++c) acc = Fold<Max>(acc, hn::LoadU(d, p + c));
    } else {
      for (int64_t c = 0; c < g.kw; c += 2) {
        V even, odd;
        hn::LoadInterleaved2(d, p + c, even, odd);
        acc = Fold<Max>(acc, even);
        if (c + 1 < g.kw) acc = Fold<Max>(acc, odd);
      }
    }
  }
  if constexpr (!Max) acc = hn::Div(acc, hn::Set(d, static_cast<float>(g.kh * g.kw)));
  hn::StoreU(acc, d, out + j);
}

// One output row in vectors of d: vectors of outputs while their loads stay inside the image
// row, the last vector moved back to end at the row's end (recomputing a few outputs) where
// it fits, else the rest one by one.
template <bool Max, int64_t kStride, class DV>
HWY_INLINE void Row(DV d, const float* HWY_RESTRICT row, float* HWY_RESTRICT out,
                    const InsideWindow& g) {
  const int64_t n = static_cast<int64_t>(hn::Lanes(d));
  // Columns a vector of outputs from j reads past j * kStride: with stride 2 the last
  // de-interleaving load starts at the last even tap and reads 2n columns.
  const int64_t reach = kStride == 1 ? n + g.kw - 1 : 2 * n + ((g.kw - 1) & ~int64_t{1});
  int64_t j = 0;
  for (; j + n <= g.ow && j * kStride + reach <= g.iw; j += n)
    Outputs<Max, kStride>(d, row, out, g, j);
  if (j == g.ow) return;
  const int64_t last = g.ow - n;
  if (last >= 0 && last * kStride + reach <= g.iw)
    return Outputs<Max, kStride>(d, row, out, g, last);
  for (; j < g.ow; ++j) out[j] = pool_one<Max>(row + j * kStride, g);
}

// The output rows [item0, item1) in vectors of d.
template <bool Max, class DV>
HWY_INLINE void RowsOf(DV d, const float* x, float* y, const InsideWindow& g, int64_t item0,
                       int64_t item1) {
  for (int64_t item = item0; item < item1; ++item) {
    const int64_t pl = item / g.oh, oh = item % g.oh;
    const float* row = x + (pl * g.ih + oh * g.sh) * g.iw;
    if (g.sw == 1)
      Row<Max, 1>(d, row, y + item * g.ow, g);
    else
      Row<Max, 2>(d, row, y + item * g.ow, g);
  }
}

// Rows shorter than a whole vector (the 8 outputs of a 16-column plane where AVX-512 holds
// 16) take vectors of 8 or 4 lanes; one by one they took 10 µs of a small CNN's 137 (its
// last 2x2 pool, 64 planes of 16 x 16).
template <bool Max>
HWY_INLINE void Rows(const float* x, float* y, const InsideWindow& g, int64_t item0,
                     int64_t item1) {
  if (g.sw != 1 && g.sw != 2) return pool_inside_rows<Max>(x, y, g, item0, item1);
  const D d;
  const hn::CappedTag<float, 8> d8;
  const hn::CappedTag<float, 4> d4;
  if (g.ow >= static_cast<int64_t>(hn::Lanes(d))) return RowsOf<Max>(d, x, y, g, item0, item1);
  if (g.ow >= static_cast<int64_t>(hn::Lanes(d8))) return RowsOf<Max>(d8, x, y, g, item0, item1);
  RowsOf<Max>(d4, x, y, g, item0, item1);
}

void PoolInsideRows(bool max, const float* x, float* y, const InsideWindow& g, int64_t item0,
                    int64_t item1) {
  if (max)
    Rows<true>(x, y, g, item0, item1);
  else
    Rows<false>(x, y, g, item0, item1);
}

}  // namespace bough::kernels::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace bough::kernels {

HWY_EXPORT(PoolInsideRows);

void pool_inside_rows_f32(bool max, const float* x, float* y, const InsideWindow& g, int64_t item0,
                          int64_t item1) {
  HWY_DYNAMIC_DISPATCH(PoolInsideRows)(max, x, y, g, item0, item1);
}

std::optional<InsideWindow> inside_window(const Window& w) {
  if (w.rank() != 2) return std::nullopt;
  for (size_t d = 0; d < 2; ++d)
    if (w.dilation[d] != 1 || w.pad_begin[d] != 0 ||
        (w.out[d] - 1) * w.stride[d] + w.kernel[d] > w.in[d])
      return std::nullopt;
  return InsideWindow{w.in[0],     w.in[1],     w.out[0],    w.out[1],
                      w.kernel[0], w.kernel[1], w.stride[0], w.stride[1]};
}

}  // namespace bough::kernels
#endif  // HWY_ONCE
