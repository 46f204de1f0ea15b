// Comparing runtime values the way the ONNX backend tests do.
#pragma once

#include <string>

#include "bough/value.h"

namespace bough {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// "" when `actual` matches `expected`; otherwise what differs. Floating values (every float
// kind, and both parts of complex ones) match when |a - e| <= atol + rtol * |e|, except
// that an infinity only matches the same infinity and NaN only matches NaN. Integers,
// bools and strings match exactly. Sequences compare item by item; the empty optional only
// matches itself.
std::string compare_values(const Value& expected, const Value& actual, Tolerance tol);

}  // namespace bough
