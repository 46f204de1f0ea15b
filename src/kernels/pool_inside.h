// MaxPool and AveragePool over 2-D windows that all lie inside the image (no padding
// reached, dilation 1, no partial window from ceil_mode): the 2x2 stride 2 downsampling of
// CNNs and other small windows, each output straight from its taps, without the general
// walk's per-row window bookkeeping (kernels/pool_window.h) and with the divisor the same
// for every output.
//
// The taps are folded in the general walk's order (image rows outer, columns inner; a sum
// from 0, a maximum from -inf or the type's lowest, where a NaN tap never wins, as in
// std::max(acc, tap)), so the results are those of the general walk, bit for bit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "kernels/conv_window.h"
#include "kernels/elementwise_loops.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// A 2-D window whose every position lies inside an ih x iw image.
struct InsideWindow {
  int64_t ih, iw, oh, ow, kh, kw, sh, sw;
};

// w as an InsideWindow when it is one: 2-D, dilation 1, every window inside the image.
std::optional<InsideWindow> inside_window(const Window& w);

// The value a maximum starts from: no tap loses to it.
template <typename T>
T pool_lowest() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  return std::numeric_limits<T>::lowest();
}

// The maximum (Max) or mean of the window whose first tap is `p`, in an image of rows `iw`
// long.
template <bool Max, typename T>
T pool_one(const T* p, const InsideWindow& g) {
  T acc = Max ? pool_lowest<T>() : T(0);
  for (int64_t r = 0; r < g.kh; ++r)
    for (int64_t c = 0; c < g.kw; ++c) {
      const T v = p[r * g.iw + c];
      acc = Max ? std::max(acc, v) : acc + v;
    }
  if constexpr (Max)
    return acc;
  else
    return acc / static_cast<T>(g.kh * g.kw);
}

// Outputs [from, g.ow) of the output rows [item0, item1) (items over planes x g.oh) of x into
// y, one at a time.
template <bool Max, typename T>
void pool_inside_rows(const T* x, T* y, const InsideWindow& g, int64_t item0, int64_t item1,
                      int64_t from = 0) {
  for (int64_t item = item0; item < item1; ++item) {
    const int64_t pl = item / g.oh, oh = item % g.oh;
    const T* row = x + (pl * g.ih + oh * g.sh) * g.iw;
    T* out = y + item * g.ow;
    for (int64_t j = from; j < g.ow; ++j) out[j] = pool_one<Max>(row + j * g.sw, g);
  }
}

// pool_inside_rows for float, vectors of outputs where the column stride is 1 or 2, compiled
// once per vector target (kernels/pool_inside.cc) and picked at run time.
void pool_inside_rows_f32(bool max, const float* x, float* y, const InsideWindow& g, int64_t item0,
                          int64_t item1);

// y = the maxima (Max) or means of the windows g of the `planes` planes of x, spread over
// the pool.
template <bool Max, typename T>
void pool_inside(const T* x, T* y, int64_t planes, const InsideWindow& g, util::ThreadPool& pool) {
  pool.parallel_for(planes * g.oh, util::grain_for(g.ow * g.kh * g.kw * kElementWork),
                    [&](int64_t b, int64_t e) {
                      if constexpr (std::is_same_v<T, float>)
                        pool_inside_rows_f32(Max, x, y, g, b, e);
                      else
                        pool_inside_rows<Max>(x, y, g, b, e);
                    });
}

}  // namespace bough::kernels
