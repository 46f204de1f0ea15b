// Element type conversion for every pair of types, as Cast defines it.
#pragma once

#include "bough/tensor.h"
#include "ir/float_formats.h"

namespace bough::kernels {

struct CastOptions {
  bool saturate = true;                   // float8 targets (Cast-19+)
  E8M0Rounding round = E8M0Rounding::Up;  // float8e8m0 target (Cast-24+)
};

// x converted to `to`, into `out` (reinit'ed, so a buffer kept from the last run is reused;
// it must not be `x`). When x already has type `to`, `out` shares x's buffer.
void cast_into(const Tensor& x, ElemType to, Tensor& out, CastOptions options = {});
// cast_into a new tensor.
Tensor cast(const Tensor& x, ElemType to, CastOptions options = {});

// Shorthands for kernels that compute narrow float types in float.
inline Tensor to_float(const Tensor& x) { return cast(x, ElemType::Float); }

}  // namespace bough::kernels
