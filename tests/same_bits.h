// Float results compared bit for bit, NaN for NaN.
#pragma once

#include <cmath>
#include <cstring>

namespace bough::test {

// x and y the same bits, or both NaN (of any payload: which NaN an operation gives depends on
// its operands' order, which a rewrite may change).
inline bool same_bits_or_nan(float x, float y) {
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  return std::memcmp(&x, &y, sizeof x) == 0;
}

}  // namespace bough::test
