#include "ops/onnx/dynamic_quantize.h"

#include <algorithm>
#include <cmath>

namespace bough::ops::quant {

DynamicQuantized dynamic_quantize(const Tensor& x) {
  const float* xs = x.data<float>();
  const int64_t n = x.numel();
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < n; ++i) {
    if (xs[i] < lo) lo = xs[i];
    if (xs[i] > hi) hi = xs[i];  // NaN compares false both ways
  }
  DynamicQuantized q;
  q.scale = (hi - lo) / 255.0f;
  q.y = Tensor(ElemType::UInt8, x.shape());
  uint8_t* ys = q.y.data<uint8_t>();
  if (q.scale > 0.0f && std::isfinite(q.scale)) {
    const float initial = 0.0f - lo / q.scale;
    q.zero_point = static_cast<uint8_t>(std::nearbyint(std::clamp(initial, 0.0f, 255.0f)));
    const float zp = q.zero_point;
    for (int64_t i = 0; i < n; ++i) {
      const float r = std::nearbyint(xs[i] / q.scale) + zp;
      ys[i] = std::isnan(r) ? 0 : static_cast<uint8_t>(std::clamp(r, 0.0f, 255.0f));
    }
  } else {
    std::fill(ys, ys + n, uint8_t{0});
  }
  return q;
}

}  // namespace bough::ops::quant
