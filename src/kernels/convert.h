// Element type conversion for every pair of types, as Cast defines it.
#pragma once

#include "bough/tensor.h"
#include "ir/float_formats.h"

namespace bough::kernels {

struct CastOptions {
  bool saturate = true;  // float8 targets (Cast-19+)
  E8M0Rounding round = E8M0Rounding::Up;  // float8e8m0 target (Cast-24+)
};

Tensor cast(const Tensor& x, ElemType to, CastOptions options = {});

// Shorthands for kernels that compute narrow float types in float.
inline Tensor to_float(const Tensor& x) { return cast(x, ElemType::Float); }

}  // namespace bough::kernels
