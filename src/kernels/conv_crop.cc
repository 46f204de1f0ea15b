#include "kernels/conv_crop.h"

#include <algorithm>
#include <cmath>

namespace bough::kernels {

bool TapCrop::crops(const Window& win) const {
  for (size_t d = 0; d < begin.size(); ++d)
    if (begin[d] > 0 || end[d] < win.kernel[d]) return true;
  return false;
}

TapCrop dead_tap_crop(const Window& win) {
  TapCrop crop;
  for (size_t d = 0; d < win.rank(); ++d) {
    const int64_t k = win.kernel[d], s = win.stride[d], dil = win.dilation[d];
    const int64_t pb = win.pad_begin[d], pe = win.pad_end[d];
    // Tap t reads o * s + t * dil - pb for o in [0, out): live when the first o at or past
    // the image's start (o0) exists and lands before its end.
    auto live = [&](int64_t t) {
      const int64_t first = t * dil - pb;
      const int64_t o0 = first >= 0 ? 0 : (-first + s - 1) / s;
      return o0 < win.out[d] && o0 * s + first < win.in[d];
    };
    int64_t b = 0, e = k;
    while (b < k && !live(b)) ++b;
    if (b == k) {  // nothing but padding: keep the axis whole
      crop.begin.push_back(0);
      crop.end.push_back(k);
      continue;
    }
    while (!live(e - 1)) --e;
    crop.begin.push_back(std::min(b, pb / dil));
    crop.end.push_back(std::max(e, k - pe / dil));
  }
  return crop;
}

Window cropped_window(const Window& win, const TapCrop& crop) {
  Window w = win;
  for (size_t d = 0; d < win.rank(); ++d) {
    w.kernel[d] = crop.end[d] - crop.begin[d];
    w.pad_begin[d] -= crop.begin[d] * win.dilation[d];
    w.pad_end[d] -= (win.kernel[d] - crop.end[d]) * win.dilation[d];
  }
  return w;
}

template <typename T>
bool crop_filter(const T* w, int64_t filters, const Window& win, const TapCrop& crop, T* dst) {
  const size_t rank = win.rank();
  const int64_t K = win.kernel_numel();
  std::vector<char> kept(static_cast<size_t>(K));
  for (int64_t t = 0; t < K; ++t) {
    bool in = true;
    for (size_t d = rank, q = static_cast<size_t>(t); d-- > 0;) {
      const int64_t k = static_cast<int64_t>(q % static_cast<size_t>(win.kernel[d]));
      q /= static_cast<size_t>(win.kernel[d]);
      in = in && k >= crop.begin[d] && k < crop.end[d];
    }
    kept[static_cast<size_t>(t)] = in;
  }
  bool finite = true;
  for (int64_t f = 0; f < filters; ++f, w += K)
    for (int64_t t = 0; t < K; ++t) {
      if (kept[static_cast<size_t>(t)])
        *dst++ = w[t];
      else
        finite = finite && std::isfinite(w[t]);
    }
  return finite;
}

template bool crop_filter<float>(const float*, int64_t, const Window&, const TapCrop&, float*);
template bool crop_filter<double>(const double*, int64_t, const Window&, const TapCrop&, double*);

}  // namespace bough::kernels
