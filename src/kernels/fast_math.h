// Vectorizable float approximations of the transcendental functions the activations use,
// where libm's scalar calls dominate a kernel (glibc's tanhf costs some 40 ns per element).
//
// Each function is straight-line code: special cases are handled by selects rather than
// branches, no division is conditional (GCC does not if-convert an operation that might
// trap), and float-to-integer conversion goes through the bits, so a loop over them
// vectorizes without intrinsics (kernels/fast_math_maps.h compiles the kernels' loops once
// per vector target). The error bounds below are in
// ulps of the exact result (the spacing of floats at it, 2^-149 among denormals), measured
// against double-precision libm over all 2^32 inputs by bench/fast_math_exhaustive and
// checked on a sample of the whole range by tests/kernels/fast_math_test.cc. The polynomial
// coefficients are Cephes's (S. Moshier) single-precision ones.
//
// The exhaustive run of 2026-11-24 (g++ 12, -O3 -march=x86-64-v3) found at worst: exp 1.010
// ulp, log 0.827, tanh 4.896, sigmoid 2.402, erf 2.471, gelu 14.469, tanh-Gelu 10.74 (and
// within its tail bound below 0.01): all within the bounds stated below. Re-run 2026-11-29
// through the kernels' loops (kernels::fast_map, its AVX-512 copy): the same worst cases,
// except tanh-Gelu's, now 12.000 ulp at x = -9.2354 in its tail (result -1.4e-30,
// relative error 7.9e-7 against the 5e-5 allowed there).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace bough::kernels {

// What one float element of a map through these functions costs, in util::kMinWorkPerThread's
// units (a float loop's bytes read and written): a Relu map costs its 8 bytes, these cost
// 6-30 times that, so the cost rule splits them by this and not by their bytes. Measured
// one core, 1M floats, `bough bench` minimum, 2026-11-25 (a Relu map: 85 µs): exp 580 µs,
// log 828, tanh 474, sigmoid 771, erf 1,800, gelu 2,590, tanh-Gelu 1,162, softmax along
// rows of 256 1,263, log-softmax 1,157. Softmax and LogSoftmax again after their kernels were
// rewritten (docs/bench/cnn.md), 2026-12-03, 4096 rows of 256 against the Relu map, six and
// four interleaved pairs: 392-399 and 415-425 µs against 74-93, 5.3 maps' time each.
inline constexpr int64_t kExpWork = 56;
inline constexpr int64_t kLogWork = 80;
inline constexpr int64_t kTanhWork = 48;
inline constexpr int64_t kSigmoidWork = 72;
inline constexpr int64_t kErfWork = 168;
inline constexpr int64_t kGeluWork = 240;
inline constexpr int64_t kGeluTanhWork = 112;
inline constexpr int64_t kSoftmaxWork = 40;  // per element of a row, LogSoftmax's too

namespace fast_math_detail {

// c0 + c1 x + c2 x^2 + ... by Horner's rule.
template <typename... Rest>
[[gnu::always_inline]] inline float poly(float x, float c0, Rest... rest) {
  if constexpr (sizeof...(rest) == 0)
    return c0;
  else
    return std::fma(poly(x, rest...), x, c0);
}

// poly(x, c0, c1, ...) with each ck = first ? ak : bk, for arguments first, a0, b0, a1, b1, ...
template <typename... Rest>
[[gnu::always_inline]] inline float poly_pick(float x, bool first, float a0, float b0,
                                              Rest... rest) {
  const float c0 = first ? a0 : b0;
  if constexpr (sizeof...(rest) == 0)
    return c0;
  else
    return std::fma(poly_pick(x, first, rest...), x, c0);
}

// 2^n for n in [-126, 127], built from the exponent bits.
[[gnu::always_inline]] inline float pow2(int32_t n) {
  return std::bit_cast<float>(static_cast<uint32_t>(n + 127) << 23);
}

}  // namespace fast_math_detail

// e^x with at most 1.1 ulp of error. exp(x) = +inf from x = 88.7228394 (the first float with
// e^x above FLT_MAX by more than half an ulp), denormal results below x = -87.33654,
// 0 below x = -103.972; NaN gives NaN.
[[gnu::always_inline]] inline float fast_exp(float x) {
  using namespace fast_math_detail;
  // Clamped so that n below stays in [-150, 128]; e^89 and e^-104 already overflow and
  // underflow. A NaN is replaced by 0 here (its bits would make n garbage) and restored
  // at the end.
  const float xc = x != x ? 0.0f : std::min(std::max(x, -104.0f), 89.0f);
  // x = n ln2 + r with |r| <= ln2 / 2; adding 1.5 * 2^23 rounds n to an integer and leaves
  // it in the low bits of the sum.
  constexpr float kRound = 0x1.8p23f;
  const float t = std::fma(xc, 1.44269504088896341f, kRound);
  const float n = t - kRound;
  const int32_t ni =
      static_cast<int32_t>(std::bit_cast<uint32_t>(t) - std::bit_cast<uint32_t>(kRound));
  // ln2 in two parts: n * 0.693359375 is exact for |n| < 2^15.
  float r = std::fma(n, -0.693359375f, xc);
  r = std::fma(n, 2.12194440e-4f, r);
  const float p = std::fma(poly(r, 5.0000001201E-1f, 1.6666665459E-1f, 4.1665795894E-2f,
                                8.3334519073E-3f, 1.3981999507E-3f, 1.9875691500E-4f),
                           r * r, r) +
                  1.0f;
  // 2^n as two factors, each a normal float for n in [-150, 128]: the first product is
  // exact and the second rounds once, into a denormal or to infinity when it has to.
  const int32_t n1 = ni >> 1;
  const float y = p * pow2(n1) * pow2(ni - n1);
  return x != x ? x : y;
}

// Natural logarithm with at most 1 ulp of error for every positive float, denormals
// included. log(+0) = log(-0) = -inf, log(x < 0) = NaN, log(+inf) = +inf, NaN gives NaN.
[[gnu::always_inline]] inline float fast_log(float x) {
  using namespace fast_math_detail;
  // Denormals are scaled into the normal range first.
  const bool denormal = x < std::numeric_limits<float>::min();
  const float xs = denormal ? x * 0x1p23f : x;
  // x = m 2^e with m in [sqrt(1/2), sqrt(2)): log x = e ln2 + log(1 + f), f = m - 1 exact.
  const uint32_t bits = std::bit_cast<uint32_t>(xs);
  const int32_t e = static_cast<int32_t>(bits - 0x3f3504f3u) >> 23;
  const float m = std::bit_cast<float>(bits - (static_cast<uint32_t>(e) << 23));
  const float ef = static_cast<float>(e) - (denormal ? 23.0f : 0.0f);
  const float f = m - 1.0f;
  const float f2 = f * f;
  float y = f * f2 *
            poly(f, 3.3333331174E-1f, -2.4999993993E-1f, 2.0000714765E-1f, -1.6668057665E-1f,
                 1.4249322787E-1f, -1.2420140846E-1f, 1.1676998740E-1f, -1.1514610310E-1f,
                 7.0376836292E-2f);
  y = std::fma(ef, -2.12194440e-4f, y);
  y = std::fma(f2, -0.5f, y);
  const float l = std::fma(ef, 0.693359375f, f + y);
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float special =
      x == 0.0f ? -kInf : (x == kInf ? kInf : std::numeric_limits<float>::quiet_NaN());
  // x > 0 is false for NaN, negatives and zeros; +inf is finite-checked through `special`.
  return x > 0.0f && x < kInf ? l : (x != x ? x : special);
}

// tanh(x) with at most 5 ulp of error: a 13/6 rational approximation on [-7.9, 7.9]
// (coefficients as in Eigen's ptanh_float), about three times cheaper than through exp;
// tanh(±0) = ±0, ±1 from |x| = 9.02, NaN gives NaN.
[[gnu::always_inline]] inline float fast_tanh(float x) {
  using namespace fast_math_detail;
  constexpr float kClamp = 7.90531110763549805f;
  const float c = std::min(std::max(x, -kClamp), kClamp);
  const float x2 = c * c;
  const float p = c * poly(x2, 4.89352455891786e-03f, 6.37261928875436e-04f, 1.48572235717979e-05f,
                           5.12229709037114e-08f, -8.60467152213735e-11f, 2.00018790482477e-13f,
                           -2.76076847742355e-16f);
  const float q = poly(x2, 4.89352518554385e-03f, 2.26843463243900e-03f, 1.18534705686654e-04f,
                       1.19825839466702e-06f);
  // Tiny inputs: tanh(x) = x to float precision, and the ratio would lose the low bits.
  // The division is unconditional so that loops over this vectorize (a conditional
  // division might trap, so GCC will not if-convert it).
  const float r = p / q;
  const float a = std::abs(x);
  return a < 4e-4f ? x : (a >= 9.02f ? std::copysign(1.0f, x) : r);
}

// The logistic function 1 / (1 + e^-x) with at most 3 ulp of error (relative, also in the
// far negative tail, where it is e^x and goes denormal below x = -87.3); NaN gives NaN.
[[gnu::always_inline]] inline float fast_sigmoid(float x) {
  // e^-|x| never overflows: x >= 0 gives 1 / (1 + e), x < 0 gives e / (1 + e).
  const float e = fast_exp(-std::abs(x));
  return (x >= 0.0f ? 1.0f : e) / (1.0f + e);
}

namespace fast_math_detail {

// erfc(a) for a >= 1 as exp(-a^2) P(1/a^2) / a, with a^2 = a2_hi + a2_lo exactly: the low
// part keeps the rounding of a^2 (relative 2^-24, times a^2 up to 200 in exp's argument)
// out of the result.
[[gnu::always_inline]] inline float erfc_tail(float a, float a2_hi, float a2_lo) {
  const float q = 1.0f / a;
  const float q2 = q * q;
  // Cephes's two fits of erfc(a) a e^(a^2) in 1/a^2, on [1, 2) and on [2, 14) (the second
  // padded with a 0), evaluated as one polynomial with the coefficients picked per element:
  // two polynomials and an exp make a loop body GCC no longer vectorizes.
  const float p = poly_pick(
      q2, a < 2.0f, 5.638259427386472E-1f, 5.641895067754075E-1f, -2.741127028184656E-1f,
      -2.820767439740514E-1f, 3.404879937665872E-1f, 4.218463358204948E-1f, -4.944515323274145E-1f,
      -1.015265279202700E+0f, 6.210004621745983E-1f, 2.921019019210786E+0f, -5.824733027278666E-1f,
      -7.495518717768503E+0f, 3.687424674597105E-1f, 1.297719955372516E+1f, -1.387039388740657E-1f,
      -1.047766399936249E+1f, 2.326819970068386E-2f, 0.0f);
  // e^-(hi + lo) = e^-hi (1 - lo) to float precision (|lo| <= 2^-24 hi).
  const float ex = fast_exp(-a2_hi) * (1.0f - a2_lo);
  return ex * q * p;
}

// erf(a) for 0 <= a < 1 as a P(a^2).
[[gnu::always_inline]] inline float erf_small(float a, float a2) {
  return a * poly(a2, 1.128379165726710E+0f, -3.761262582423300E-1f, 1.128358514861418E-1f,
                  -2.685381193529856E-2f, 5.188327685732524E-3f, -8.010193625184903E-4f,
                  7.853861353153693E-5f);
}

// erfc(a) for a >= 0 with relative accuracy: 1 - erf(a) below 1, the tail above (where
// 1 - erf would cancel). Clamped at 10.5, where erfc has underflowed to 0.
[[gnu::always_inline]] inline float erfc_nonnegative(float a, float a2_hi, float a2_lo) {
  const float ac = std::min(a, 10.5f);
  const float tail = erfc_tail(ac, std::min(a2_hi, 110.25f), a2_lo);
  return a < 1.0f ? 1.0f - erf_small(a, a2_hi) : (a < 10.5f ? tail : 0.0f);
}
}  // namespace fast_math_detail

// erf(x) with at most 3 ulp of error; erf(±0) = ±0, ±1 from |x| = 3.9192, NaN gives NaN.
[[gnu::always_inline]] inline float fast_erf(float x) {
  using namespace fast_math_detail;
  const float a = std::abs(x);
  const float ac = std::min(a, 4.0f);  // erf(4) = 1 in float; keeps e^-a^2 normal
  const float a2 = ac * ac;
  const float tail = erfc_tail(std::max(ac, 1.0f), a2, std::fma(ac, ac, -a2));
  const float r = a < 1.0f ? erf_small(a, a * a) : 1.0f - tail;
  return std::copysign(x != x ? x : r, x);
}

// Gelu, x Phi(x) = x/2 erfc(-x / sqrt 2), with error at most 16 ulp (the worst near
// x = -1.41, where erfc below 1 is 1 - erf and loses erf's few ulps of 0.84); for x < 0 the
// erfc is computed directly (not 1 + erf, which cancels), so the negative tail is accurate
// down to where it underflows (-0 below x = -14.253). NaN gives NaN.
[[gnu::always_inline]] inline float fast_gelu(float x) {
  using namespace fast_math_detail;
  // The tail needs (x / sqrt 2)^2 = x^2 / 2 exactly: from x^2 as hi + lo, halved exactly.
  // Beyond |x| = 16 erfc(|x| / sqrt 2) is 0, and clamping keeps infinities out of 0 * inf.
  const float xc = std::min(std::max(x, -16.0f), 16.0f);
  const float x2 = xc * xc;
  const float x2_lo = std::fma(xc, xc, -x2);
  const float a = std::abs(xc) * 0.70710678118654752f;
  const float ec = erfc_nonnegative(a, 0.5f * x2, 0.5f * x2_lo);
  // x >= 0: x (1 - erfc(x / sqrt 2) / 2); x < 0: x erfc(-x / sqrt 2) / 2.
  const float half_x = 0.5f * xc;
  return x >= 0.0f ? std::fma(-half_x, ec, x) : half_x * ec;
}

// Gelu's tanh approximation, x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), computed as
// x sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)) (the same function; it does not cancel for
// x < 0). Error at most 12 ulp where |result| >= 0.01; below that, in the negative tail,
// relative error up to 5e-5: there the result is about e^2u, and the rounding of u itself
// (|2u| up to 87, relative 2^-24 per operation) dominates. Below x = -10.68 it is -0; NaN
// gives NaN.
[[gnu::always_inline]] inline float fast_gelu_tanh(float x) {
  const float xc = std::max(x, -16.0f);  // keeps x^3 finite so that -inf gives -0, not NaN
  const float u = 1.5957691216057308f * std::fma(0.044715f * xc, xc * xc, xc);
  return xc * fast_sigmoid(u);
}

// The same functions for double, from libm: operators templated on the element type call
// kernels::fast_exp(v) and the like for float and double alike.
inline double fast_exp(double x) { return std::exp(x); }
inline double fast_log(double x) { return std::log(x); }
inline double fast_tanh(double x) { return std::tanh(x); }
inline double fast_sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double fast_erf(double x) { return std::erf(x); }
inline double fast_gelu(double x) { return 0.5 * x * std::erfc(-x * 0.70710678118654752440); }
inline double fast_gelu_tanh(double x) {
  const double inner = 0.79788456080286535588 * (x + 0.044715 * x * x * x);
  return 0.5 * x * (1.0 + std::tanh(inner));
}

}  // namespace bough::kernels
