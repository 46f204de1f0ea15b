// The uint8 quantization DynamicQuantizeLinear defines, shared with com.microsoft's
// DynamicQuantizeMatMul, in float arithmetic exactly as the spec's function body does:
//   lo = min(0, min(x)), hi = max(0, max(x)), scale = (hi - lo) / 255,
//   zero_point = round(clip(0 - lo / scale, 0, 255)), y = QuantizeLinear(x, scale, zero_point).
// NaN elements are left out of the range, and a range of zero (x all zeros, or empty) or
// infinity gives zero_point 0 and y all 0.
#pragma once

#include <cstdint>

#include "bough/tensor.h"

namespace bough::ops::quant {

struct DynamicQuantized {
  Tensor y;  // uint8, x's shape
  float scale = 0;
  uint8_t zero_point = 0;
};

// x must be float.
DynamicQuantized dynamic_quantize(const Tensor& x);

}  // namespace bough::ops::quant
