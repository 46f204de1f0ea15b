// Conversions between float and the narrow element types, as the ONNX spec defines
// them (docs/Operators.md Cast, docs/docs/technical/float8.md, float4.md, int4.md, int2.md).
// All float -> narrow conversions round to nearest, ties to even, unless a mode says otherwise.
#pragma once

#include <cstdint>

#include "bough/element_type.h"

namespace bough {

float half_to_float(uint16_t bits);
uint16_t float_to_half(float value);

float bfloat16_to_float(uint16_t bits);
uint16_t float_to_bfloat16(float value);

// The four float8 types (E4M3FN, E4M3FNUZ, E5M2, E5M2FNUZ). `saturate` follows Cast's
// attribute: when true, out-of-range finite values and infinities clamp to the largest
// finite value (keeping the sign); when false they become NaN, or infinity for E5M2.
float float8_to_float(ElemType type, uint8_t bits);
uint8_t float_to_float8(ElemType type, float value, bool saturate = true);

// float8e8m0: an exponent only (2^(bits-127)); 0xFF is NaN. Cast-24's round_mode: Up = next
// power of two, Down = previous one, Nearest = nearer one (ties up). Out of range after
// rounding (0 and inf included): 0x00 / 0xFE when saturating, else NaN. Negative inputs are
// unspecified by ONNX; the magnitude is used.
enum class E8M0Rounding { Up, Down, Nearest };
float e8m0_to_float(uint8_t bits);
uint8_t float_to_e8m0(float value, bool saturate = true, E8M0Rounding mode = E8M0Rounding::Up);

// float4e2m1 in the low 4 bits; no infinities or NaN in the format. ONNX always saturates
// here (Cast's saturate covers float8 only), so `saturate` is ignored: +-inf and |x| > 6 give
// +-6. NaN has no code; it gives 0x8 (-0), whatever its sign, as ONNX's Cast test data does.
float float4e2m1_to_float(uint8_t nibble);
uint8_t float_to_float4e2m1(float value, bool saturate = true);

// Packed sub-byte storage: element i lives in byte i / (8 / bits), low bits first.
// `bits` is 4 or 2. Values returned are the raw field (not sign-extended).
inline uint8_t get_packed(const uint8_t* data, int64_t i, int bits) {
  int per_byte = 8 / bits;
  int shift = static_cast<int>(i % per_byte) * bits;
  return static_cast<uint8_t>((data[i / per_byte] >> shift) & ((1 << bits) - 1));
}
inline void set_packed(uint8_t* data, int64_t i, int bits, uint8_t field) {
  int per_byte = 8 / bits;
  int shift = static_cast<int>(i % per_byte) * bits;
  uint8_t mask = static_cast<uint8_t>(((1 << bits) - 1) << shift);
  data[i / per_byte] =
      static_cast<uint8_t>((data[i / per_byte] & ~mask) | ((field << shift) & mask));
}
// Sign-extends a `bits`-wide field (int4: -8..7, int2: -2..1).
inline int8_t sign_extend(uint8_t field, int bits) {
  int shift = 8 - bits;
  return static_cast<int8_t>(static_cast<int8_t>(field << shift) >> shift);
}

// int4/uint4/int2/uint2 from a float or an integer. Two rules, for two kinds of operator:
//
// Cast (and CastLike): truncate toward zero, then keep the low bits (wrap modulo 2^bits),
// as onnx's reference and test data do: int4 -9 -> 7, 8.7 -> -8; int2 -3 -> 1. The spec leaves
// out-of-range float conversions undefined; bough wraps every finite value below 2^63 in
// magnitude and gives 0 for NaN, infinities and larger magnitudes.
uint8_t cast_to_small_int(ElemType type, double value);
// The same wrap for an integer source (exact for every int64).
uint8_t wrap_to_small_int(ElemType type, int64_t value);
// QuantizeLinear: round to nearest even, then clamp to the type's range (saturation);
// NaN gives 0.
uint8_t saturate_to_small_int(ElemType type, double value);

}  // namespace bough
