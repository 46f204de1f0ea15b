// A double converted to a kernel's element type with the result defined for every input.
// C++ leaves a float-to-integer conversion undefined out of the target's range and for NaN
// (ReduceLogSum of integers takes log 0 = -inf; Shrink and ReduceLogSumExp go through
// double), so every such conversion in kernels and operators goes through here.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace bough::util {

// Integers truncate toward zero and saturate: -inf and values below the range give the
// minimum, +inf and values above it the maximum; NaN gives 0. Bool is v != 0. Floating
// types (float16 and bfloat16 included) round as a cast does.
template <typename T>
T from_double(double v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v != 0;
  } else if constexpr (std::is_integral_v<T>) {
    if (std::isnan(v)) return 0;
    const double t = std::trunc(v);
    // max() as a double may round up to 2^bits (int64, uint64): `>=` covers that value too.
    if (t <= static_cast<double>(std::numeric_limits<T>::lowest()))
      return std::numeric_limits<T>::lowest();
    if (t >= static_cast<double>(std::numeric_limits<T>::max()))
      return std::numeric_limits<T>::max();
    return static_cast<T>(t);
  } else {
    return static_cast<T>(v);
  }
}

// A computed value r stored as element type T: through from_double when a floating-point
// value meets an integer type (a plain cast is undefined out of range), else a cast. For
// maps written once for every type (Gemm's alpha * v, an activation's f(v)).
template <typename T, typename R>
T stored_as(R r) {
  if constexpr (std::is_floating_point_v<R> && std::is_integral_v<T>)
    return from_double<T>(static_cast<double>(r));
  else
    return static_cast<T>(r);
}

}  // namespace bough::util
