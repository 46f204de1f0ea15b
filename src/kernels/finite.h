// Whether a run of floating-point values holds only finite ones (no NaN, no infinity): for
// kernels whose fast paths reorder or skip arithmetic in ways that only finite values survive
// unchanged (Conv's Winograd transforms mix a tile's values; its direct paths skip the taps
// in the padding, where the definition multiplies by zeros), to take the plain path otherwise.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace bough::kernels {

// True when no element of x[0, n) is a NaN or an infinity (float or double). Tests the
// exponent bits, so that the compiler vectorizes it; stops at the end of the block of 4,096
// elements where one was found.
template <typename T>
bool all_finite(const T* x, int64_t n) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr Bits kExponent =
      static_cast<Bits>(sizeof(T) == 4 ? 0x7f800000ull : 0x7ff0000000000000ull);
  constexpr int64_t kBlock = 4096;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = std::min(n, start + kBlock);
    Bits found = 0;
    for (int64_t i = start; i < end; ++i) {
      Bits b;
      std::memcpy(&b, x + i, sizeof b);
      found |= static_cast<Bits>((b & kExponent) == kExponent);
    }
    if (found) return false;
  }
  return true;
}

}  // namespace bough::kernels
