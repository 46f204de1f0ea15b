#include "ir/float_formats.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

#include "bough/error.h"

namespace bough {
namespace {

constexpr uint32_t kF32AbsMask = 0x7FFFFFFFu;
constexpr uint32_t kF32Inf = 0x7F800000u;

uint32_t float_bits(float f) { return std::bit_cast<uint32_t>(f); }
float bits_float(uint32_t b) { return std::bit_cast<float>(b); }
bool is_nan_bits(uint32_t bits) { return (bits & kF32AbsMask) > kF32Inf; }

// Rounds a non-negative float32 (given as its bits, NaN excluded) to the nearest value of a
// binary format with `mant_bits` stored mantissa bits whose smallest normal exponent is
// `emin`, ties to even. Returns the magnitude code (exponent field << mant_bits | mantissa).
// The code is not bounded: anything above the format's largest finite code is an overflow
// for the caller to handle, and +inf (exponent 128) always lands there.
uint32_t round_magnitude(uint32_t abs_bits, int mant_bits, int emin) {
  int exp_field = static_cast<int>(abs_bits >> 23);
  uint32_t sig = abs_bits & 0x7FFFFFu;
  int e = -126;  // float32 subnormals: sig * 2^(-126-23), no implicit bit
  if (exp_field != 0) {
    e = exp_field - 127;
    sig |= 0x800000u;
  }
  if (sig == 0) return 0;
  // Below emin the target is subnormal: its step stays 2^(emin - mant_bits).
  int shift = 23 - mant_bits + std::max(emin - e, 0);
  shift = std::min(shift, 25);  // sig < 2^24, so a shift of 25 already rounds to zero
  uint32_t q = sig >> shift;
  uint32_t rem = sig & ((1u << shift) - 1);
  uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u))) ++q;
  // q holds the implicit bit for normals, so adding it carries into the exponent field
  // (which is also how rounding up out of the subnormal range or to the next binade works).
  return (static_cast<uint32_t>(std::max(e - emin, 0)) << mant_bits) + q;
}

// Inverse of round_magnitude for a finite magnitude code.
float decode_magnitude(uint32_t mag, int mant_bits, int emin) {
  uint32_t exp_field = mag >> mant_bits;
  uint32_t mant = mag & ((1u << mant_bits) - 1);
  if (exp_field == 0) return std::ldexp(static_cast<float>(mant), emin - mant_bits);
  float sig = static_cast<float>((1u << mant_bits) | mant);
  return std::ldexp(sig, emin + static_cast<int>(exp_field) - 1 - mant_bits);
}

float with_sign(bool negative, float magnitude) { return negative ? -magnitude : magnitude; }

struct Float8Format {
  int mant_bits;
  int emin;         // 1 - bias
  uint8_t max_mag;  // largest finite magnitude code
  bool uz;          // "unsigned zero": 0x80 is the only NaN, there is no -0 and no inf
  bool has_inf;     // E5M2 only: 0x7C is inf, 0x7D..0x7F are NaN
};

const Float8Format& float8_format(ElemType type) {
  static constexpr Float8Format kE4M3FN{3, -6, 0x7E, false, false};
  static constexpr Float8Format kE4M3FNUZ{3, -7, 0x7F, true, false};
  static constexpr Float8Format kE5M2{2, -14, 0x7B, false, true};
  static constexpr Float8Format kE5M2FNUZ{2, -15, 0x7F, true, false};
  switch (type) {
    case ElemType::Float8E4M3FN:
      return kE4M3FN;
    case ElemType::Float8E4M3FNUZ:
      return kE4M3FNUZ;
    case ElemType::Float8E5M2:
      return kE5M2;
    case ElemType::Float8E5M2FNUZ:
      return kE5M2FNUZ;
    default:
      fail(ErrorKind::Unsupported, "", "not a float8 type: " + std::string(elem_name(type)));
  }
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

}  // namespace

float half_to_float(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t mag = bits & 0x7FFFu;
  if (mag >= 0x7C00u) {
    uint32_t mant = mag & 0x3FFu;
    if (mant == 0) return bits_float(sign | kF32Inf);
    return bits_float(sign | kF32Inf | 0x400000u | (mant << 13));  // quiet, payload kept
  }
  return with_sign(sign != 0, decode_magnitude(mag, 10, -14));
}

uint16_t float_to_half(float value) {
  uint32_t bits = float_bits(value);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t abs_bits = bits & kF32AbsMask;
  if (is_nan_bits(bits)) return static_cast<uint16_t>(sign | 0x7E00u | ((abs_bits >> 13) & 0x3FFu));
  uint32_t mag = round_magnitude(abs_bits, 10, -14);
  if (mag > 0x7BFFu) return static_cast<uint16_t>(sign | 0x7C00u);  // IEEE: overflow -> inf
  return static_cast<uint16_t>(sign | mag);
}

float bfloat16_to_float(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  if (is_nan_bits(wide)) wide |= 0x400000u;  // quiet a signalling NaN
  return bits_float(wide);
}

uint16_t float_to_bfloat16(float value) {
  uint32_t bits = float_bits(value);
  // NaN must be handled first: rounding a NaN with a small payload would carry it into inf.
  if (is_nan_bits(bits)) return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  // RNE on the dropped 16 bits; a carry out of the mantissa correctly bumps the exponent.
  uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float float8_to_float(ElemType type, uint8_t bits) {
  const Float8Format& f = float8_format(type);
  bool negative = (bits & 0x80u) != 0;
  uint8_t mag = bits & 0x7Fu;
  if (f.uz) {
    if (bits == 0x80u) return kNaN;
  } else if (f.has_inf) {
    if ((mag & 0x7Cu) == 0x7Cu) {
      return mag == 0x7Cu ? with_sign(negative, std::numeric_limits<float>::infinity()) : kNaN;
    }
  } else if (mag == 0x7Fu) {
    return kNaN;
  }
  return with_sign(negative, decode_magnitude(mag, f.mant_bits, f.emin));
}

uint8_t float_to_float8(ElemType type, float value, bool saturate) {
  const Float8Format& f = float8_format(type);
  uint32_t bits = float_bits(value);
  uint8_t sign = static_cast<uint8_t>((bits >> 24) & 0x80u);
  // Cast's tables: NaN keeps its sign where the format has signed NaNs (0x7F/0xFF).
  uint8_t nan = f.uz ? 0x80 : static_cast<uint8_t>(sign | 0x7F);
  if (is_nan_bits(bits)) return nan;
  uint32_t mag = round_magnitude(bits & kF32AbsMask, f.mant_bits, f.emin);
  if (mag > f.max_mag) {  // out of range after rounding, or +-inf
    if (saturate) return static_cast<uint8_t>(sign | f.max_mag);
    return f.has_inf ? static_cast<uint8_t>(sign | 0x7C) : nan;
  }
  if (mag == 0 && f.uz) return 0;  // no negative zero: 0x80 is NaN
  return static_cast<uint8_t>(sign | mag);
}

float e8m0_to_float(uint8_t bits) {
  if (bits == 0xFF) return kNaN;
  return std::ldexp(1.0f, static_cast<int>(bits) - 127);
}

// Cast-24/25 for float8e8m0. `Up` rounds to the next power of two (ceil), `Down` to the
// previous one (floor), `Nearest` to the nearer one with ties (1.5 * 2^k) going up.
// Out of range after rounding (including 0 and inf): saturate gives 0x00 (2^-127) or
// 0xFE (2^127), otherwise NaN. The spec leaves negative inputs (and -0) unspecified; like
// onnx's reference implementation we use the magnitude.
uint8_t float_to_e8m0(float value, bool saturate, E8M0Rounding mode) {
  if (std::isnan(value)) return 0xFF;
  constexpr int kTooBig = 1000;
  constexpr int kTooSmall = -1000;
  float a = std::fabs(value);
  int k;
  if (std::isinf(a)) {
    k = kTooBig;
  } else if (a == 0.0f) {
    k = kTooSmall;
  } else {
    int x;
    float frac = std::frexp(a, &x);  // a = frac * 2^x, frac in [0.5, 1); exact for subnormals
    k = x - 1;
    if (frac != 0.5f) {
      if (mode == E8M0Rounding::Up || (mode == E8M0Rounding::Nearest && frac >= 0.75f)) ++k;
    }
  }
  if (k > 127) return saturate ? 0xFE : 0xFF;
  if (k < -127) return saturate ? 0x00 : 0xFF;
  return static_cast<uint8_t>(k + 127);
}

float float4e2m1_to_float(uint8_t nibble) {
  return with_sign((nibble & 0x8u) != 0, decode_magnitude(nibble & 0x7u, 1, 0));
}

// ONNX float4.md: float4e2m1 always saturates (Cast's saturate covers float8 only):
// |x| > 6 and +-inf give +-6. NaN has no code; onnx's test data maps it to 0x8 (-0).
// `saturate` is therefore ignored.
uint8_t float_to_float4e2m1(float value, bool /*saturate*/) {
  uint32_t bits = float_bits(value);
  if (is_nan_bits(bits)) return 0x8;
  uint8_t sign = static_cast<uint8_t>((bits >> 28) & 0x8u);
  uint32_t mag = round_magnitude(bits & kF32AbsMask, 1, 0);
  return static_cast<uint8_t>(sign | std::min<uint32_t>(mag, 0x7u));
}

namespace {

struct SmallIntRange {
  int lo, hi, bits;
};

SmallIntRange small_int_range(ElemType type) {
  switch (type) {
    case ElemType::Int4:
      return {-8, 7, 4};
    case ElemType::UInt4:
      return {0, 15, 4};
    case ElemType::Int2:
      return {-2, 1, 2};
    case ElemType::UInt2:
      return {0, 3, 2};
    default:
      fail(ErrorKind::Unsupported, "",
           "not a 4- or 2-bit integer type: " + std::string(elem_name(type)));
  }
}

}  // namespace

uint8_t wrap_to_small_int(ElemType type, int64_t value) {
  const SmallIntRange r = small_int_range(type);
  return static_cast<uint8_t>(static_cast<uint64_t>(value) & ((1u << r.bits) - 1));
}

uint8_t cast_to_small_int(ElemType type, double value) {
  const SmallIntRange r = small_int_range(type);
  constexpr double kLimit = 9223372036854775808.0;  // 2^63
  double t = std::trunc(value);                     // NaN stays NaN, +-inf stay +-inf
  if (!(std::fabs(t) < kLimit)) return 0;
  return static_cast<uint8_t>(static_cast<uint64_t>(static_cast<int64_t>(t)) &
                              ((1u << r.bits) - 1));
}

uint8_t saturate_to_small_int(ElemType type, double value) {
  const SmallIntRange r = small_int_range(type);
  if (std::isnan(value)) return 0;
  // Clamping first keeps the rounding in range (the bounds are integers) and tames +-inf.
  double v = std::clamp(value, static_cast<double>(r.lo), static_cast<double>(r.hi));
  double n = std::nearbyint(v);  // the default rounding mode: to nearest, ties to even
  return static_cast<uint8_t>(static_cast<int>(n) & ((1 << r.bits) - 1));
}

}  // namespace bough
