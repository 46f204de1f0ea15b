// Finding the first float past a bound, with vector compares picked at run time (Highway's
// dynamic dispatch), for scans where almost every element is skipped (TopK's best k).
#pragma once

#include <cstdint>

namespace bough::kernels {

// The first i < n with !(x[i] <= bound) (`above`) or !(x[i] >= bound) (not `above`), or n
// when there is none. A NaN element, or a NaN bound, counts as past it.
int64_t first_beyond(const float* x, int64_t n, float bound, bool above);

}  // namespace bough::kernels
