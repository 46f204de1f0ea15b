// Comparing runtime values the way the ONNX backend tests do.
#pragma once

#include <string>

#include "bough/tensor.h"

namespace bough {

struct Tolerance {
  double rtol = 1e-3;
  double atol = 1e-7;
};

// "" when `actual` matches `expected`; otherwise what differs. Floats match when
// |a - e| <= atol + rtol * |e| (NaN equals NaN); integers, bools and strings exactly.
// Sequences compare item by item; the empty optional only matches itself.
std::string compare_values(const Value& expected, const Value& actual, Tolerance tol);

}  // namespace bough
