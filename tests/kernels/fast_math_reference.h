// What the fast float functions of kernels/fast_math.h are measured against: each one's
// exact value from double-precision libm (independent of the approximations), and the
// error of a float result in ulps of that value. Shared by tests/kernels/fast_math_test.cc
// (a sample of all floats) and bench/fast_math_exhaustive.cc (all 2^32 of them).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/fast_math.h"
#include "kernels/fast_math_maps.h"

namespace bough::test {

struct FastMathCase {
  const char* name;
  float (*fast)(float);
  kernels::FastFn fn;  // the same through the kernels' loop (kernels::fast_map)
  double (*exact)(double);
  double max_ulp;  // the bound stated in kernels/fast_math.h
  // Where |exact value| < tail_below, a relative error up to tail_relative also passes (the
  // tail of tanh-Gelu, where the rounding of its argument dominates).
  double tail_below = 0, tail_relative = 0;
};

inline double exact_exp(double x) { return std::exp(x); }
inline double exact_log(double x) { return std::log(x); }
inline double exact_tanh(double x) { return std::tanh(x); }
inline double exact_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double exact_erf(double x) { return std::erf(x); }
inline double exact_gelu(double x) {
  if (std::isinf(x)) return x > 0 ? x : -0.0;  // not -inf * erfc(inf) = -inf * 0
  return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
}
// x/2 (1 + tanh(u)) = x / (1 + e^-2u): the second form does not cancel for u << 0.
inline double exact_gelu_tanh(double x) {
  if (std::isinf(x)) return x > 0 ? x : -0.0;
  const double u = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-2.0 * u));
}

inline constexpr FastMathCase kFastMathCases[] = {
    {"exp", kernels::fast_exp, kernels::FastFn::Exp, exact_exp, 1.1},
    {"log", kernels::fast_log, kernels::FastFn::Log, exact_log, 1},
    {"tanh", kernels::fast_tanh, kernels::FastFn::Tanh, exact_tanh, 5},
    {"sigmoid", kernels::fast_sigmoid, kernels::FastFn::Sigmoid, exact_sigmoid, 3},
    {"erf", kernels::fast_erf, kernels::FastFn::Erf, exact_erf, 3},
    {"gelu", kernels::fast_gelu, kernels::FastFn::Gelu, exact_gelu, 16},
    {"gelu_tanh", kernels::fast_gelu_tanh, kernels::FastFn::GeluTanh, exact_gelu_tanh, 12, 1e-2,
     5e-5},
};

// |got - exact| in units of the float spacing at `exact` (2^-149 below FLT_MIN, 2^104 above
// FLT_MAX). A NaN or infinite result counts as exact only where the exact value rounded to
// float is the same (NaN for NaN); otherwise, as a finite result where the exact one is
// infinite, the error is infinite.
inline double ulp_error(float got, double exact) {
  const float rounded = static_cast<float>(exact);
  if (std::isnan(exact) || std::isnan(got))
    return std::isnan(exact) && std::isnan(got) ? 0 : std::numeric_limits<double>::infinity();
  if (std::isinf(got) || std::isinf(rounded))
    return got == rounded ? 0 : std::numeric_limits<double>::infinity();
  int exponent = 0;
  std::frexp(exact, &exponent);  // |exact| in [2^(exponent-1), 2^exponent)
  exponent = std::max(exponent - 1, -126);
  return std::fabs(static_cast<double>(got) - exact) / std::ldexp(1.0, exponent - 23);
}

// The error of `got` as the multiple of c's bound it is: within the bound when <= 1.
inline double bound_fraction(const FastMathCase& c, float got, double exact) {
  const double ulps = ulp_error(got, exact) / c.max_ulp;
  if (std::fabs(exact) >= c.tail_below || !std::isfinite(ulps) || ulps <= 1) return ulps;
  return std::min(ulps, std::fabs(got - exact) / std::fabs(exact) / c.tail_relative);
}

// The float with bit pattern `bits`.
inline float float_of(uint32_t bits) { return std::bit_cast<float>(bits); }

}  // namespace bough::test
