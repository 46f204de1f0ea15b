// Kernel taps that only ever read the padding. On an axis where the image is smaller than
// the window's reach (a 3x3 kernel with pads 1 over a 1-row map: its first and last rows; a
// 5x5 one with pads 2 over 2 rows: its first and last), such a tap adds 0 * w to every
// output. Dropping it is exact when w is finite (0 * inf and 0 * NaN are NaN, which must
// come out, so the caller checks the dropped weights: crop_filter), and saves its
// multiply-adds on every path; a 3x3 kernel on one row also leaves the Winograd path, whose
// 4x4 tiles would compute three rows for nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/conv_window.h"

namespace bough::kernels {

// The taps kept on each spatial axis: [begin[d], end[d]) of win.kernel[d].
struct TapCrop {
  std::vector<int64_t> begin, end;
  // Whether any tap is dropped.
  bool crops(const Window& win) const;
};

// The taps to keep on `win`: on each axis, the leading and trailing taps that read only the
// padding for every output position are dropped, as far as the pads allow (the cropped
// window's pads stay non-negative: with a dilation above 1 a dead tap may be kept). An
// axis whose taps all read only the padding keeps them all.
TapCrop dead_tap_crop(const Window& win);

// `win` with only the taps of `crop`: the kernel shortened and the pads reduced by the
// dropped taps' reach, so that every output position reads the image positions it read.
Window cropped_window(const Window& win, const TapCrop& crop);

// The filter w (`filters` rows, each a row-major kernel of shape win.kernel) with only the
// taps of `crop`, into `dst` (filters x the cropped kernel). Returns whether every dropped
// weight is finite, that is whether the cropped filter gives the same outputs.
template <typename T>
bool crop_filter(const T* w, int64_t filters, const Window& win, const TapCrop& crop, T* dst);

extern template bool crop_filter<float>(const float*, int64_t, const Window&, const TapCrop&,
                                        float*);
extern template bool crop_filter<double>(const double*, int64_t, const Window&, const TapCrop&,
                                         double*);

}  // namespace bough::kernels
