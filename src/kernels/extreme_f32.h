// The largest or smallest of a run of floats with vector compares picked at run time
// (Highway's dynamic dispatch), for ReduceMax/ReduceMin over a contiguous axis.
#pragma once

#include <cstdint>

namespace bough::kernels {

// max (`largest`) or min of x[0, n), n >= 1; NaN when any element is NaN.
float extreme_f32(const float* x, int64_t n, bool largest);

}  // namespace bough::kernels
