// Expected values are worked out by hand from the ONNX spec (Cast's float8 saturate tables,
// docs/docs/technical/float8.md, float4.md, int4.md), IEEE 754 round-to-nearest-even, and,
// where the spec leaves a case open, onnx's Cast test data (int4/int2 wrap, float4 NaN).
#include "ir/float_formats.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "bough/error.h"

namespace bough {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr E8M0Rounding kUp = E8M0Rounding::Up;
constexpr E8M0Rounding kDown = E8M0Rounding::Down;
constexpr E8M0Rounding kNearest = E8M0Rounding::Nearest;

float p2(int e) { return std::ldexp(1.0f, e); }
float from_bits(uint32_t b) { return std::bit_cast<float>(b); }
bool is_neg_zero(float f) { return f == 0.0f && std::signbit(f); }

bool half_is_nan(uint16_t h) { return (h & 0x7C00) == 0x7C00 && (h & 0x3FF) != 0; }
bool bf16_is_nan(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0; }

const ElemType kFloat8Types[] = {ElemType::Float8E4M3FN, ElemType::Float8E4M3FNUZ,
                                 ElemType::Float8E5M2, ElemType::Float8E5M2FNUZ};

bool f8_is_nan_code(ElemType t, uint8_t c) {
  switch (t) {
    case ElemType::Float8E4M3FN:
      return (c & 0x7F) == 0x7F;
    case ElemType::Float8E5M2:
      return (c & 0x7F) > 0x7C;
    default:
      return c == 0x80;
  }
}

uint8_t e4m3fn(float v, bool sat = true) { return float_to_float8(ElemType::Float8E4M3FN, v, sat); }
uint8_t e4m3fnuz(float v, bool sat = true) {
  return float_to_float8(ElemType::Float8E4M3FNUZ, v, sat);
}
uint8_t e5m2(float v, bool sat = true) { return float_to_float8(ElemType::Float8E5M2, v, sat); }
uint8_t e5m2fnuz(float v, bool sat = true) {
  return float_to_float8(ElemType::Float8E5M2FNUZ, v, sat);
}

// ---------------------------------------------------------------------------------------
// float16

TEST(HalfTest, EncodesNormalValues) {
  EXPECT_EQ(float_to_half(1.0f), 0x3C00);
  EXPECT_EQ(float_to_half(-2.0f), 0xC000);
  EXPECT_EQ(float_to_half(0.5f), 0x3800);
  EXPECT_EQ(float_to_half(0.1f), 0x2E66);
  EXPECT_EQ(float_to_half(65504.0f), 0x7BFF);  // max
  EXPECT_EQ(float_to_half(p2(-14)), 0x0400);   // smallest normal
}

TEST(HalfTest, RoundsToNearestEven) {
  // The half ulp at 1.0 is 2^-10; ties sit at odd multiples of 2^-11.
  EXPECT_EQ(float_to_half(1.0f + p2(-11)), 0x3C00);            // tie -> even 0x3C00
  EXPECT_EQ(float_to_half(1.0f + 3 * p2(-11)), 0x3C02);        // tie -> even 0x3C02
  EXPECT_EQ(float_to_half(1.0f + p2(-11) + p2(-20)), 0x3C01);  // just above the tie
  EXPECT_EQ(float_to_half(-(1.0f + 3 * p2(-11))), 0xBC02);
}

TEST(HalfTest, OverflowGoesToInfinity) {
  EXPECT_EQ(float_to_half(65519.0f), 0x7BFF);  // below the 65520 midpoint
  EXPECT_EQ(float_to_half(65520.0f), 0x7C00);  // tie: 0x7BFF is odd, so up to inf
  EXPECT_EQ(float_to_half(-1e6f), 0xFC00);
  EXPECT_EQ(float_to_half(kInf), 0x7C00);
  EXPECT_EQ(float_to_half(-kInf), 0xFC00);
}

TEST(HalfTest, Subnormals) {
  EXPECT_EQ(float_to_half(p2(-24)), 0x0001);             // smallest subnormal
  EXPECT_EQ(float_to_half(p2(-25)), 0x0000);             // tie with 0 -> 0
  EXPECT_EQ(float_to_half(-p2(-25)), 0x8000);            // keeps the sign
  EXPECT_EQ(float_to_half(1.5f * p2(-25)), 0x0001);      // above half -> 1
  EXPECT_EQ(float_to_half(3 * p2(-25)), 0x0002);         // tie between 1 and 2 -> 2
  EXPECT_EQ(float_to_half(1023 * p2(-24)), 0x03FF);      // largest subnormal
  EXPECT_EQ(float_to_half(1023.5f * p2(-24)), 0x0400);   // rounds up into the normals
  EXPECT_EQ(float_to_half(from_bits(0x00000001)), 0x0);  // float32 subnormal
  EXPECT_FLOAT_EQ(half_to_float(0x0001), p2(-24));
  EXPECT_FLOAT_EQ(half_to_float(0x03FF), 1023 * p2(-24));
  EXPECT_FLOAT_EQ(half_to_float(0x8001), -p2(-24));
}

TEST(HalfTest, ZerosAndSpecials) {
  EXPECT_EQ(float_to_half(0.0f), 0x0000);
  EXPECT_EQ(float_to_half(-0.0f), 0x8000);
  EXPECT_TRUE(half_is_nan(float_to_half(kNaN)));
  EXPECT_TRUE(half_is_nan(float_to_half(-kNaN)));
  EXPECT_EQ(float_to_half(-kNaN) & 0x8000, 0x8000);
  // A NaN whose payload lives only in the low bits must not collapse into inf.
  EXPECT_TRUE(half_is_nan(float_to_half(from_bits(0x7F800001))));
  EXPECT_TRUE(std::isnan(half_to_float(0x7E00)));
  EXPECT_TRUE(std::isnan(half_to_float(0x7C01)));
  EXPECT_TRUE(std::isnan(half_to_float(0xFFFF)));
  EXPECT_EQ(half_to_float(0x7C00), kInf);
  EXPECT_EQ(half_to_float(0xFC00), -kInf);
  EXPECT_TRUE(is_neg_zero(half_to_float(0x8000)));
  EXPECT_FLOAT_EQ(half_to_float(0x3C00), 1.0f);
  EXPECT_FLOAT_EQ(half_to_float(0x7BFF), 65504.0f);
  EXPECT_FLOAT_EQ(half_to_float(0xC000), -2.0f);
}

TEST(HalfTest, AllCodesRoundTrip) {
  for (uint32_t c = 0; c <= 0xFFFF; ++c) {
    uint16_t h = static_cast<uint16_t>(c);
    float f = half_to_float(h);
    if (half_is_nan(h)) {
      EXPECT_TRUE(std::isnan(f)) << c;
      EXPECT_TRUE(half_is_nan(float_to_half(f))) << c;
    } else {
      EXPECT_EQ(float_to_half(f), h) << c;
    }
  }
}

// ---------------------------------------------------------------------------------------
// bfloat16

TEST(BFloat16Test, EncodesAndRoundsToNearestEven) {
  EXPECT_EQ(float_to_bfloat16(1.0f), 0x3F80);
  EXPECT_EQ(float_to_bfloat16(-2.0f), 0xC000);
  EXPECT_EQ(float_to_bfloat16(3.140625f), 0x4049);
  // bfloat16 keeps 7 mantissa bits: the ulp at 1.0 is 2^-7, ties at odd multiples of 2^-8.
  EXPECT_EQ(float_to_bfloat16(1.0f + p2(-8)), 0x3F80);            // tie -> even
  EXPECT_EQ(float_to_bfloat16(1.0f + 3 * p2(-8)), 0x3F82);        // tie -> even
  EXPECT_EQ(float_to_bfloat16(1.0f + p2(-8) + p2(-20)), 0x3F81);  // above the tie
  EXPECT_EQ(float_to_bfloat16(1.0f + p2(-8) - p2(-20)), 0x3F80);  // below the tie
}

TEST(BFloat16Test, SpecialsAndOverflow) {
  EXPECT_EQ(float_to_bfloat16(0.0f), 0x0000);
  EXPECT_EQ(float_to_bfloat16(-0.0f), 0x8000);
  EXPECT_EQ(float_to_bfloat16(kInf), 0x7F80);
  EXPECT_EQ(float_to_bfloat16(-kInf), 0xFF80);
  EXPECT_EQ(float_to_bfloat16(std::numeric_limits<float>::max()), 0x7F80);  // rounds up to inf
  EXPECT_EQ(float_to_bfloat16(from_bits(0x7F7F7FFF)), 0x7F7F);              // just below the tie
  EXPECT_TRUE(bf16_is_nan(float_to_bfloat16(kNaN)));
  EXPECT_TRUE(bf16_is_nan(float_to_bfloat16(from_bits(0x7F800001))));  // not inf
  EXPECT_TRUE(bf16_is_nan(float_to_bfloat16(from_bits(0xFF800001))));
  EXPECT_TRUE(std::isnan(bfloat16_to_float(0x7FC0)));
  EXPECT_TRUE(std::isnan(bfloat16_to_float(0x7F81)));
  EXPECT_EQ(bfloat16_to_float(0x7F80), kInf);
  EXPECT_EQ(bfloat16_to_float(0xFF80), -kInf);
  EXPECT_TRUE(is_neg_zero(bfloat16_to_float(0x8000)));
}

TEST(BFloat16Test, Subnormals) {
  EXPECT_EQ(float_to_bfloat16(p2(-133)), 0x0001);  // smallest bfloat16 subnormal
  EXPECT_EQ(float_to_bfloat16(p2(-134)), 0x0000);  // tie with 0 -> 0
  EXPECT_EQ(float_to_bfloat16(3 * p2(-134)), 0x0002);
  EXPECT_EQ(float_to_bfloat16(-p2(-134)), 0x8000);
  EXPECT_FLOAT_EQ(bfloat16_to_float(0x0001), p2(-133));
  EXPECT_FLOAT_EQ(bfloat16_to_float(0x0080), p2(-126));
}

TEST(BFloat16Test, AllCodesRoundTrip) {
  for (uint32_t c = 0; c <= 0xFFFF; ++c) {
    uint16_t b = static_cast<uint16_t>(c);
    float f = bfloat16_to_float(b);
    if (bf16_is_nan(b)) {
      EXPECT_TRUE(std::isnan(f)) << c;
      EXPECT_TRUE(bf16_is_nan(float_to_bfloat16(f))) << c;
    } else {
      EXPECT_EQ(float_to_bfloat16(f), b) << c;
      EXPECT_EQ(std::bit_cast<uint32_t>(f), c << 16) << c;
    }
  }
}

// ---------------------------------------------------------------------------------------
// float8 E4M3FN: bias 7, max 448 (0x7E), NaN 0x7F/0xFF, no inf.

TEST(Float8E4M3FNTest, EncodesRepresentativeValues) {
  EXPECT_EQ(e4m3fn(1.0f), 0x38);
  EXPECT_EQ(e4m3fn(-1.0f), 0xB8);
  EXPECT_EQ(e4m3fn(0.5f), 0x30);
  EXPECT_EQ(e4m3fn(3.0f), 0x44);
  EXPECT_EQ(e4m3fn(448.0f), 0x7E);
  EXPECT_EQ(e4m3fn(-448.0f), 0xFE);
  EXPECT_EQ(e4m3fn(p2(-6)), 0x08);  // smallest normal
  EXPECT_EQ(e4m3fn(0.0f), 0x00);
  EXPECT_EQ(e4m3fn(-0.0f), 0x80);
}

TEST(Float8E4M3FNTest, RoundsToNearestEven) {
  EXPECT_EQ(e4m3fn(1.0625f), 0x38);  // tie between 1 and 1.125 -> 1 (even)
  EXPECT_EQ(e4m3fn(1.1875f), 0x3A);  // tie between 1.125 and 1.25 -> 1.25
  EXPECT_EQ(e4m3fn(1.07f), 0x39);
  EXPECT_EQ(e4m3fn(15 * p2(-10)), 0x08);   // tie between 7 * 2^-9 and 2^-6 -> 2^-6
  EXPECT_EQ(e4m3fn(464.0f, false), 0x7E);  // tie between 448 and (NaN) 480 -> 448
}

TEST(Float8E4M3FNTest, Subnormals) {
  EXPECT_EQ(e4m3fn(p2(-9)), 0x01);      // smallest subnormal
  EXPECT_EQ(e4m3fn(7 * p2(-9)), 0x07);  // largest subnormal
  EXPECT_EQ(e4m3fn(p2(-10)), 0x00);     // half the smallest: tie -> 0
  EXPECT_EQ(e4m3fn(-p2(-10)), 0x80);    // signed zero
  EXPECT_EQ(e4m3fn(1.5f * p2(-10)), 0x01);
  EXPECT_EQ(e4m3fn(3 * p2(-10)), 0x02);  // tie between 1 and 2 -> 2
  EXPECT_EQ(e4m3fn(1e-30f), 0x00);
  EXPECT_EQ(e4m3fn(-1e-30f), 0x80);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0x01), p2(-9));
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0x87), -7 * p2(-9));
}

TEST(Float8E4M3FNTest, SaturateTable) {
  EXPECT_EQ(e4m3fn(kInf), 0x7E);
  EXPECT_EQ(e4m3fn(-kInf), 0xFE);
  EXPECT_EQ(e4m3fn(465.0f), 0x7E);
  EXPECT_EQ(e4m3fn(1e10f), 0x7E);
  EXPECT_EQ(e4m3fn(-1e10f), 0xFE);
  EXPECT_EQ(e4m3fn(kNaN), 0x7F);
  EXPECT_EQ(e4m3fn(-kNaN), 0xFF);
}

TEST(Float8E4M3FNTest, NoSaturateTable) {
  EXPECT_EQ(e4m3fn(kInf, false), 0x7F);
  EXPECT_EQ(e4m3fn(-kInf, false), 0xFF);
  EXPECT_EQ(e4m3fn(465.0f, false), 0x7F);  // rounds to 480 > max
  EXPECT_TRUE(f8_is_nan_code(ElemType::Float8E4M3FN, e4m3fn(-1e10f, false)));
  EXPECT_EQ(e4m3fn(kNaN, false), 0x7F);
  EXPECT_EQ(e4m3fn(-kNaN, false), 0xFF);
  EXPECT_EQ(e4m3fn(448.0f, false), 0x7E);
  EXPECT_EQ(e4m3fn(-0.0f, false), 0x80);
}

TEST(Float8E4M3FNTest, Decodes) {
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0x7E), 448.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0xFE), -448.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0x38), 1.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FN, 0x7C), 384.0f);  // not special here
  EXPECT_TRUE(std::isnan(float8_to_float(ElemType::Float8E4M3FN, 0x7F)));
  EXPECT_TRUE(std::isnan(float8_to_float(ElemType::Float8E4M3FN, 0xFF)));
  EXPECT_TRUE(is_neg_zero(float8_to_float(ElemType::Float8E4M3FN, 0x80)));
}

// ---------------------------------------------------------------------------------------
// float8 E4M3FNUZ: bias 8, max 240 (0x7F), NaN 0x80 only, no -0, no inf.

TEST(Float8E4M3FNUZTest, EncodesRepresentativeValues) {
  EXPECT_EQ(e4m3fnuz(1.0f), 0x40);
  EXPECT_EQ(e4m3fnuz(-1.0f), 0xC0);
  EXPECT_EQ(e4m3fnuz(240.0f), 0x7F);
  EXPECT_EQ(e4m3fnuz(-240.0f), 0xFF);
  EXPECT_EQ(e4m3fnuz(p2(-7)), 0x08);         // smallest normal
  EXPECT_EQ(e4m3fnuz(244.0f, false), 0x7F);  // below the 248 midpoint
  EXPECT_EQ(e4m3fnuz(1.0625f), 0x40);        // tie -> even
}

TEST(Float8E4M3FNUZTest, ZerosAndSubnormals) {
  EXPECT_EQ(e4m3fnuz(0.0f), 0x00);
  EXPECT_EQ(e4m3fnuz(-0.0f), 0x00);
  EXPECT_EQ(e4m3fnuz(p2(-10)), 0x01);  // smallest subnormal
  EXPECT_EQ(e4m3fnuz(-p2(-10)), 0x81);
  EXPECT_EQ(e4m3fnuz(p2(-11)), 0x00);   // tie -> 0
  EXPECT_EQ(e4m3fnuz(-p2(-11)), 0x00);  // underflow gives +0: 0x80 would be NaN
  EXPECT_EQ(e4m3fnuz(-1e-30f, false), 0x00);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FNUZ, 0x01), p2(-10));
}

TEST(Float8E4M3FNUZTest, SaturateTables) {
  EXPECT_EQ(e4m3fnuz(kInf), 0x7F);
  EXPECT_EQ(e4m3fnuz(-kInf), 0xFF);
  EXPECT_EQ(e4m3fnuz(248.0f), 0x7F);  // tie rounds to 256 (even), clamps to max
  EXPECT_EQ(e4m3fnuz(-1000.0f), 0xFF);
  EXPECT_EQ(e4m3fnuz(kNaN), 0x80);
  EXPECT_EQ(e4m3fnuz(-kNaN), 0x80);
  EXPECT_EQ(e4m3fnuz(kInf, false), 0x80);
  EXPECT_EQ(e4m3fnuz(-kInf, false), 0x80);
  EXPECT_EQ(e4m3fnuz(248.0f, false), 0x80);
  EXPECT_EQ(e4m3fnuz(-1000.0f, false), 0x80);
  EXPECT_EQ(e4m3fnuz(-kNaN, false), 0x80);
}

TEST(Float8E4M3FNUZTest, Decodes) {
  EXPECT_TRUE(std::isnan(float8_to_float(ElemType::Float8E4M3FNUZ, 0x80)));
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FNUZ, 0x7F), 240.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FNUZ, 0xFF), -240.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E4M3FNUZ, 0x40), 1.0f);
  float zero = float8_to_float(ElemType::Float8E4M3FNUZ, 0x00);
  EXPECT_EQ(zero, 0.0f);
  EXPECT_FALSE(std::signbit(zero));
}

// ---------------------------------------------------------------------------------------
// float8 E5M2: bias 15, max 57344 (0x7B), inf 0x7C/0xFC, NaN 0x7D..0x7F (and negatives).

TEST(Float8E5M2Test, EncodesRepresentativeValues) {
  EXPECT_EQ(e5m2(1.0f), 0x3C);
  EXPECT_EQ(e5m2(-1.0f), 0xBC);
  EXPECT_EQ(e5m2(1.5f), 0x3E);
  EXPECT_EQ(e5m2(57344.0f), 0x7B);
  EXPECT_EQ(e5m2(-57344.0f), 0xFB);
  EXPECT_EQ(e5m2(p2(-14)), 0x04);  // smallest normal
  EXPECT_EQ(e5m2(1.125f), 0x3C);   // tie between 1 and 1.25 -> 1
  EXPECT_EQ(e5m2(1.375f), 0x3E);   // tie between 1.25 and 1.5 -> 1.5
  EXPECT_EQ(e5m2(-0.0f), 0x80);
}

TEST(Float8E5M2Test, Subnormals) {
  EXPECT_EQ(e5m2(p2(-16)), 0x01);  // smallest subnormal
  EXPECT_EQ(e5m2(3 * p2(-16)), 0x03);
  EXPECT_EQ(e5m2(p2(-17)), 0x00);   // tie -> 0
  EXPECT_EQ(e5m2(-p2(-17)), 0x80);  // signed zero
  EXPECT_EQ(e5m2(3 * p2(-17)), 0x02);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E5M2, 0x01), p2(-16));
}

TEST(Float8E5M2Test, SaturateTables) {
  EXPECT_EQ(e5m2(kInf), 0x7B);
  EXPECT_EQ(e5m2(-kInf), 0xFB);
  EXPECT_EQ(e5m2(61439.0f), 0x7B);
  EXPECT_EQ(e5m2(61440.0f), 0x7B);  // tie rounds to 65536 (even), clamps
  EXPECT_EQ(e5m2(1e10f), 0x7B);
  EXPECT_EQ(e5m2(kInf, false), 0x7C);
  EXPECT_EQ(e5m2(-kInf, false), 0xFC);
  EXPECT_EQ(e5m2(61439.0f, false), 0x7B);
  EXPECT_EQ(e5m2(61440.0f, false), 0x7C);
  EXPECT_EQ(e5m2(-1e10f, false), 0xFC);
  EXPECT_TRUE(f8_is_nan_code(ElemType::Float8E5M2, e5m2(kNaN)));
  EXPECT_TRUE(f8_is_nan_code(ElemType::Float8E5M2, e5m2(kNaN, false)));
  EXPECT_EQ(e5m2(-kNaN, false) & 0x80, 0x80);  // -NaN -> -NaN
}

TEST(Float8E5M2Test, DecodesAndMatchesHalfTopByte) {
  EXPECT_EQ(float8_to_float(ElemType::Float8E5M2, 0x7C), kInf);
  EXPECT_EQ(float8_to_float(ElemType::Float8E5M2, 0xFC), -kInf);
  for (uint8_t c : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) {
    EXPECT_TRUE(std::isnan(float8_to_float(ElemType::Float8E5M2, c))) << int(c);
  }
  // E5M2 has float16's exponent, so each code is the top byte of a half.
  for (int c = 0; c < 256; ++c) {
    float f8 = float8_to_float(ElemType::Float8E5M2, static_cast<uint8_t>(c));
    float f16 = half_to_float(static_cast<uint16_t>(c << 8));
    if (std::isnan(f16)) {
      EXPECT_TRUE(std::isnan(f8)) << c;
    } else {
      EXPECT_EQ(f8, f16) << c;
    }
  }
}

// ---------------------------------------------------------------------------------------
// float8 E5M2FNUZ: bias 16, max 57344 (0x7F), NaN 0x80 only, no -0, no inf.

TEST(Float8E5M2FNUZTest, EncodesAndDecodes) {
  EXPECT_EQ(e5m2fnuz(1.0f), 0x40);
  EXPECT_EQ(e5m2fnuz(-1.0f), 0xC0);
  EXPECT_EQ(e5m2fnuz(57344.0f), 0x7F);
  EXPECT_EQ(e5m2fnuz(-57344.0f), 0xFF);
  EXPECT_EQ(e5m2fnuz(p2(-15)), 0x04);   // smallest normal
  EXPECT_EQ(e5m2fnuz(p2(-17)), 0x01);   // smallest subnormal
  EXPECT_EQ(e5m2fnuz(p2(-18)), 0x00);   // tie -> 0
  EXPECT_EQ(e5m2fnuz(-p2(-18)), 0x00);  // no negative zero
  EXPECT_EQ(e5m2fnuz(-0.0f), 0x00);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E5M2FNUZ, 0x7F), 57344.0f);
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E5M2FNUZ, 0x01), p2(-17));
  EXPECT_TRUE(std::isnan(float8_to_float(ElemType::Float8E5M2FNUZ, 0x80)));
  EXPECT_FLOAT_EQ(float8_to_float(ElemType::Float8E5M2FNUZ, 0x7C), 32768.0f);  // not inf
}

TEST(Float8E5M2FNUZTest, SaturateTables) {
  EXPECT_EQ(e5m2fnuz(kInf), 0x7F);
  EXPECT_EQ(e5m2fnuz(-kInf), 0xFF);
  EXPECT_EQ(e5m2fnuz(61440.0f), 0x7F);
  EXPECT_EQ(e5m2fnuz(kNaN), 0x80);
  EXPECT_EQ(e5m2fnuz(kInf, false), 0x80);
  EXPECT_EQ(e5m2fnuz(-kInf, false), 0x80);
  EXPECT_EQ(e5m2fnuz(61440.0f, false), 0x80);
  EXPECT_EQ(e5m2fnuz(61439.0f, false), 0x7F);
  EXPECT_EQ(e5m2fnuz(-kNaN, false), 0x80);
}

// ---------------------------------------------------------------------------------------
// All float8 types together.

TEST(Float8Test, All256CodesRoundTrip) {
  for (ElemType t : kFloat8Types) {
    int nan_codes = 0;
    for (int c = 0; c < 256; ++c) {
      uint8_t code = static_cast<uint8_t>(c);
      float f = float8_to_float(t, code);
      if (f8_is_nan_code(t, code)) {
        ++nan_codes;
        EXPECT_TRUE(std::isnan(f)) << elem_name(t) << " " << c;
        EXPECT_TRUE(f8_is_nan_code(t, float_to_float8(t, f, true))) << elem_name(t) << " " << c;
        EXPECT_TRUE(f8_is_nan_code(t, float_to_float8(t, f, false))) << elem_name(t) << " " << c;
      } else if (std::isinf(f)) {  // E5M2 only: inf survives only without saturation
        EXPECT_EQ(float_to_float8(t, f, false), code) << elem_name(t) << " " << c;
        EXPECT_EQ(float_to_float8(t, f, true), (code & 0x80) | 0x7B) << elem_name(t) << " " << c;
      } else {
        EXPECT_EQ(float_to_float8(t, f, true), code) << elem_name(t) << " " << c;
        EXPECT_EQ(float_to_float8(t, f, false), code) << elem_name(t) << " " << c;
      }
    }
    int expected_nans = t == ElemType::Float8E4M3FN ? 2 : t == ElemType::Float8E5M2 ? 6 : 1;
    EXPECT_EQ(nan_codes, expected_nans) << elem_name(t);
  }
}

TEST(Float8Test, PositiveCodesIncreaseMonotonically) {
  for (ElemType t : kFloat8Types) {
    float prev = -1.0f;
    for (int c = 0; c < 128; ++c) {
      float f = float8_to_float(t, static_cast<uint8_t>(c));
      if (std::isnan(f) || std::isinf(f)) continue;
      EXPECT_GT(f, prev) << elem_name(t) << " " << c;
      prev = f;
    }
  }
}

// Brute force: the nearest finite code by distance, ties to the even code (the code's last
// bit is the mantissa's last bit), compared with the encoder over a dense sweep of inputs.
TEST(Float8Test, MatchesBruteForceNearestEven) {
  for (ElemType t : kFloat8Types) {
    std::vector<std::pair<double, int>> finite;  // positive finite values and their codes
    for (int c = 0; c < 128; ++c) {
      float f = float8_to_float(t, static_cast<uint8_t>(c));
      if (!std::isnan(f) && !std::isinf(f)) finite.emplace_back(f, c);
    }
    double max = finite.back().first;
    std::vector<float> inputs;
    for (size_t i = 0; i < finite.size(); ++i) {
      double v = finite[i].first;
      inputs.push_back(static_cast<float>(v));
      if (i + 1 < finite.size()) {
        double mid = (v + finite[i + 1].first) / 2;
        inputs.push_back(static_cast<float>(mid));
        inputs.push_back(std::nextafter(static_cast<float>(mid), 0.0f));
        inputs.push_back(std::nextafter(static_cast<float>(mid), kInf));
        inputs.push_back(static_cast<float>(v + (mid - v) / 3));
      }
    }
    for (float x : inputs) {
      int best = -1;
      double best_dist = 0;
      for (auto [v, c] : finite) {
        double d = std::fabs(v - x);
        if (best < 0 || d < best_dist || (d == best_dist && (c & 1) == 0)) {
          best = c;
          best_dist = d;
        }
      }
      ASSERT_LE(x, max);
      EXPECT_EQ(float_to_float8(t, x), best) << elem_name(t) << " x=" << x;
      int neg = (best == 0 && (t == ElemType::Float8E4M3FNUZ || t == ElemType::Float8E5M2FNUZ))
                    ? 0
                    : best | 0x80;
      EXPECT_EQ(float_to_float8(t, -x, false), neg) << elem_name(t) << " x=" << -x;
    }
  }
}

TEST(Float8Test, RejectsOtherTypes) {
  EXPECT_THROW(float_to_float8(ElemType::Float16, 1.0f), Error);
  EXPECT_THROW(float8_to_float(ElemType::Float8E8M0, 0x7F), Error);
}

// ---------------------------------------------------------------------------------------
// float8e8m0: 2^(bits-127), 0xFF NaN, no zero, no sign.

TEST(E8M0Test, Decodes) {
  EXPECT_EQ(e8m0_to_float(0x7F), 1.0f);
  EXPECT_EQ(e8m0_to_float(0x80), 2.0f);
  EXPECT_EQ(e8m0_to_float(0x7E), 0.5f);
  EXPECT_EQ(e8m0_to_float(0x00), p2(-127));  // a float32 subnormal, still exact
  EXPECT_EQ(e8m0_to_float(0xFE), p2(127));
  EXPECT_TRUE(std::isnan(e8m0_to_float(0xFF)));
}

TEST(E8M0Test, AllCodesRoundTripInEveryMode) {
  for (int c = 0; c < 256; ++c) {
    float f = e8m0_to_float(static_cast<uint8_t>(c));
    for (bool sat : {true, false}) {
      for (E8M0Rounding m : {kUp, kDown, kNearest}) {
        EXPECT_EQ(float_to_e8m0(f, sat, m), c) << c;
      }
    }
  }
}

TEST(E8M0Test, RoundModes) {
  EXPECT_EQ(float_to_e8m0(1.5f), 0x80);  // default: up
  EXPECT_EQ(float_to_e8m0(1.5f, true, kUp), 0x80);
  EXPECT_EQ(float_to_e8m0(1.5f, true, kDown), 0x7F);
  EXPECT_EQ(float_to_e8m0(1.5f, true, kNearest), 0x80);  // tie goes up
  EXPECT_EQ(float_to_e8m0(1.25f, true, kUp), 0x80);
  EXPECT_EQ(float_to_e8m0(1.25f, true, kDown), 0x7F);
  EXPECT_EQ(float_to_e8m0(1.25f, true, kNearest), 0x7F);
  EXPECT_EQ(float_to_e8m0(1.75f, true, kNearest), 0x80);
  EXPECT_EQ(float_to_e8m0(std::nextafter(1.5f, 0.0f), true, kNearest), 0x7F);
  EXPECT_EQ(float_to_e8m0(3.0f, true, kNearest), 0x81);  // 1.5 * 2 -> 4
  EXPECT_EQ(float_to_e8m0(1.0f + p2(-23), true, kUp), 0x80);
  EXPECT_EQ(float_to_e8m0(0.3f, true, kDown), 0x7D);  // 0.25
  EXPECT_EQ(float_to_e8m0(0.3f, true, kUp), 0x7E);    // 0.5
}

TEST(E8M0Test, SpecialValuesSaturating) {
  for (E8M0Rounding m : {kUp, kDown, kNearest}) {
    EXPECT_EQ(float_to_e8m0(kNaN, true, m), 0xFF);
    EXPECT_EQ(float_to_e8m0(kInf, true, m), 0xFE);  // Cast: Inf -> E8M0_MAX
    EXPECT_EQ(float_to_e8m0(0.0f, true, m), 0x00);  // Cast: 0 -> 0 (E8M0_MIN)
    EXPECT_EQ(float_to_e8m0(p2(-149), true, m), 0x00);
  }
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), true, kUp), 0xFE);
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), true, kNearest), 0xFE);
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), true, kDown), 0xFE);
}

TEST(E8M0Test, SpecialValuesNotSaturating) {
  for (E8M0Rounding m : {kUp, kDown, kNearest}) {
    EXPECT_EQ(float_to_e8m0(kNaN, false, m), 0xFF);
    EXPECT_EQ(float_to_e8m0(kInf, false, m), 0xFF);
    EXPECT_EQ(float_to_e8m0(0.0f, false, m), 0xFF);
    EXPECT_EQ(float_to_e8m0(p2(-149), false, m), 0xFF);
  }
  // Overflow is decided after rounding: up and nearest push FLT_MAX to 2^128, down keeps 2^127.
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), false, kUp), 0xFF);
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), false, kNearest), 0xFF);
  EXPECT_EQ(float_to_e8m0(std::numeric_limits<float>::max(), false, kDown), 0xFE);
  EXPECT_EQ(float_to_e8m0(1.2f * p2(127), false, kNearest), 0xFE);
}

TEST(E8M0Test, BelowTheSmallestPower) {
  // Between 2^-128 and 2^-127 (float32 subnormals): only rounding up stays in range.
  float x = 1.25f * p2(-128);
  EXPECT_EQ(float_to_e8m0(x, false, kUp), 0x00);
  EXPECT_EQ(float_to_e8m0(x, false, kDown), 0xFF);
  EXPECT_EQ(float_to_e8m0(x, false, kNearest), 0xFF);
  EXPECT_EQ(float_to_e8m0(x, true, kDown), 0x00);
  EXPECT_EQ(float_to_e8m0(1.5f * p2(-128), false, kNearest), 0x00);  // tie goes up
  EXPECT_EQ(float_to_e8m0(p2(-128), false, kUp), 0xFF);              // exact 2^-128
  EXPECT_EQ(float_to_e8m0(p2(-128), true, kUp), 0x00);
}

TEST(E8M0Test, NegativeInputsUseTheMagnitude) {
  // Unspecified by ONNX; bough (like onnx's reference code) ignores the sign.
  EXPECT_EQ(float_to_e8m0(-2.0f), 0x80);
  EXPECT_EQ(float_to_e8m0(-1.5f, true, kDown), 0x7F);
  EXPECT_EQ(float_to_e8m0(-0.0f), 0x00);
  EXPECT_EQ(float_to_e8m0(-kInf), 0xFE);
}

// ---------------------------------------------------------------------------------------
// float4e2m1

TEST(Float4Test, All16CodesDecodeAndRoundTrip) {
  const float values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (uint8_t c = 0; c < 16; ++c) {
    float f = float4e2m1_to_float(c);
    float expected = (c & 8) ? -values[c & 7] : values[c & 7];
    EXPECT_EQ(f, expected) << int(c);
    EXPECT_EQ(std::signbit(f), (c & 8) != 0) << int(c);
    EXPECT_EQ(float_to_float4e2m1(f), c) << int(c);
  }
}

TEST(Float4Test, RoundsToNearestEven) {
  EXPECT_EQ(float_to_float4e2m1(0.25f), 0x0);  // tie 0 / 0.5 -> 0
  EXPECT_EQ(float_to_float4e2m1(0.26f), 0x1);
  EXPECT_EQ(float_to_float4e2m1(0.75f), 0x2);  // tie 0.5 / 1 -> 1
  EXPECT_EQ(float_to_float4e2m1(1.25f), 0x2);  // tie 1 / 1.5 -> 1
  EXPECT_EQ(float_to_float4e2m1(1.3f), 0x3);
  EXPECT_EQ(float_to_float4e2m1(1.75f), 0x4);  // tie 1.5 / 2 -> 2
  EXPECT_EQ(float_to_float4e2m1(2.5f), 0x4);   // tie 2 / 3 -> 2
  EXPECT_EQ(float_to_float4e2m1(2.6f), 0x5);
  EXPECT_EQ(float_to_float4e2m1(3.5f), 0x6);  // tie 3 / 4 -> 4
  EXPECT_EQ(float_to_float4e2m1(5.0f), 0x6);  // tie 4 / 6 -> 4
  EXPECT_EQ(float_to_float4e2m1(5.01f), 0x7);
  EXPECT_EQ(float_to_float4e2m1(-2.5f), 0xC);
  EXPECT_EQ(float_to_float4e2m1(-5.01f), 0xF);
}

TEST(Float4Test, ZerosSaturationAndSpecials) {
  EXPECT_EQ(float_to_float4e2m1(0.0f), 0x0);
  EXPECT_EQ(float_to_float4e2m1(-0.0f), 0x8);
  EXPECT_EQ(float_to_float4e2m1(-0.1f), 0x8);  // underflow keeps the sign
  EXPECT_EQ(float_to_float4e2m1(7.0f), 0x7);
  EXPECT_EQ(float_to_float4e2m1(1e30f), 0x7);
  EXPECT_EQ(float_to_float4e2m1(-1e30f), 0xF);
  EXPECT_EQ(float_to_float4e2m1(kInf), 0x7);
  EXPECT_EQ(float_to_float4e2m1(-kInf), 0xF);
  // No NaN code: onnx's test data (test_cast_FLOAT_to_FLOAT4E2M1) maps NaN to 0x8 (-0).
  EXPECT_EQ(float_to_float4e2m1(kNaN), 0x8);
  EXPECT_EQ(float_to_float4e2m1(-kNaN), 0x8);  // ... whatever the NaN's sign
  // ONNX always saturates float4; the flag changes nothing.
  EXPECT_EQ(float_to_float4e2m1(kInf, false), 0x7);
  EXPECT_EQ(float_to_float4e2m1(-100.0f, false), 0xF);
  EXPECT_EQ(float_to_float4e2m1(kNaN, false), 0x8);
}

// ---------------------------------------------------------------------------------------
// int4 / uint4 / int2 / uint2
//
// Cast: truncate toward zero, then wrap (onnx test data: test_cast_FLOAT_to_INT4 maps
// -9..15 to 7, -8, -7, ..., 7, -8, ..., -1; test_cast_FLOAT_to_INT2 maps -3..3 to 1, -2, -1,
// 0, 1, -2, -1). QuantizeLinear: round half to even, then saturate.

TEST(SmallIntTest, CastInt4WrapsLikeTheTestData) {
  auto c = [](double v) { return sign_extend(cast_to_small_int(ElemType::Int4, v), 4); };
  for (int v = -9; v <= 15; ++v) EXPECT_EQ(c(v), ((v + 8) & 15) - 8) << v;
  EXPECT_EQ(c(-9.0), 7);
  EXPECT_EQ(c(8.0), -8);
  EXPECT_EQ(c(15.0), -1);
  EXPECT_EQ(c(16.0), 0);
  EXPECT_EQ(c(-17.0), -1);
  EXPECT_EQ(c(1000.0), -8);  // 1000 = 62 * 16 + 8
}

TEST(SmallIntTest, CastTruncatesTowardZero) {
  auto c = [](double v) { return sign_extend(cast_to_small_int(ElemType::Int4, v), 4); };
  EXPECT_EQ(c(0.5), 0);
  EXPECT_EQ(c(1.5), 1);
  EXPECT_EQ(c(2.9), 2);
  EXPECT_EQ(c(-0.9), 0);
  EXPECT_EQ(c(-2.5), -2);
  EXPECT_EQ(c(-3.99), -3);
  EXPECT_EQ(c(7.9), 7);
  EXPECT_EQ(c(8.7), -8);  // 8, wrapped
  EXPECT_EQ(c(-8.7), -8);
  EXPECT_EQ(c(-9.5), 7);  // -9, wrapped
}

TEST(SmallIntTest, CastUInt4Wraps) {
  auto c = [](double v) { return cast_to_small_int(ElemType::UInt4, v); };
  for (int v = -9; v <= 15; ++v) EXPECT_EQ(c(v), v & 15) << v;
  EXPECT_EQ(c(-9.0), 7);
  EXPECT_EQ(c(-1.0), 15);
  EXPECT_EQ(c(16.0), 0);
  EXPECT_EQ(c(17.9), 1);
  EXPECT_EQ(c(-0.4), 0);
  EXPECT_EQ(c(14.5), 14);
}

TEST(SmallIntTest, CastInt2AndUInt2Wrap) {
  auto i2 = [](double v) { return sign_extend(cast_to_small_int(ElemType::Int2, v), 2); };
  auto u2 = [](double v) { return cast_to_small_int(ElemType::UInt2, v); };
  const int int2_expected[7] = {1, -2, -1, 0, 1, -2, -1};  // test_cast_FLOAT_to_INT2
  const int uint2_expected[7] = {1, 2, 3, 0, 1, 2, 3};     // test_cast_FLOAT_to_UINT2
  for (int v = -3; v <= 3; ++v) {
    EXPECT_EQ(i2(v), int2_expected[v + 3]) << v;
    EXPECT_EQ(u2(v), uint2_expected[v + 3]) << v;
  }
  EXPECT_EQ(i2(1.5), 1);
  EXPECT_EQ(i2(-1.5), -1);
  EXPECT_EQ(i2(4.2), 0);
  EXPECT_EQ(u2(3.7), 3);
  EXPECT_EQ(u2(4.0), 0);
  EXPECT_EQ(u2(-0.4), 0);
}

TEST(SmallIntTest, CastSpecialValuesGiveZero) {
  for (ElemType t : {ElemType::Int4, ElemType::UInt4, ElemType::Int2, ElemType::UInt2}) {
    EXPECT_EQ(cast_to_small_int(t, kNaN), 0) << elem_name(t);
    EXPECT_EQ(cast_to_small_int(t, -kNaN), 0) << elem_name(t);
    EXPECT_EQ(cast_to_small_int(t, kInf), 0) << elem_name(t);
    EXPECT_EQ(cast_to_small_int(t, -kInf), 0) << elem_name(t);
    EXPECT_EQ(cast_to_small_int(t, 1e300), 0) << elem_name(t);
    EXPECT_EQ(cast_to_small_int(t, -9223372036854775808.0), 0) << elem_name(t);  // -2^63
  }
  // Large finite values below 2^63 still wrap.
  EXPECT_EQ(cast_to_small_int(ElemType::Int4, std::ldexp(1.0, 62)), 0);
  EXPECT_EQ(cast_to_small_int(ElemType::UInt4, std::ldexp(1.0, 52) + 9.0), 9);
  EXPECT_EQ(cast_to_small_int(ElemType::UInt4, -std::ldexp(1.0, 52) - 9.0), 7);
}

TEST(SmallIntTest, WrapFromIntegers) {
  EXPECT_EQ(wrap_to_small_int(ElemType::Int4, -9), 0x7);
  EXPECT_EQ(wrap_to_small_int(ElemType::Int4, 8), 0x8);
  EXPECT_EQ(wrap_to_small_int(ElemType::UInt4, 255), 0xF);
  EXPECT_EQ(wrap_to_small_int(ElemType::UInt4, 256), 0x0);
  EXPECT_EQ(wrap_to_small_int(ElemType::Int2, -3), 0x1);
  EXPECT_EQ(wrap_to_small_int(ElemType::UInt2, 6), 0x2);
  // Exact for the whole int64 range (a double would lose the low bits).
  EXPECT_EQ(wrap_to_small_int(ElemType::UInt4, std::numeric_limits<int64_t>::max()), 0xF);
  EXPECT_EQ(wrap_to_small_int(ElemType::UInt4, (int64_t{1} << 60) + 5), 0x5);
  EXPECT_EQ(wrap_to_small_int(ElemType::Int4, std::numeric_limits<int64_t>::min()), 0x0);
}

TEST(SmallIntTest, SaturateInt4) {
  auto q = [](double v) { return saturate_to_small_int(ElemType::Int4, v); };
  EXPECT_EQ(q(0.0), 0x0);
  EXPECT_EQ(q(3.0), 0x3);
  EXPECT_EQ(q(-1.0), 0xF);
  EXPECT_EQ(q(0.5), 0x0);  // tie -> even 0
  EXPECT_EQ(q(1.5), 0x2);  // tie -> even 2
  EXPECT_EQ(q(2.5), 0x2);
  EXPECT_EQ(q(-0.5), 0x0);
  EXPECT_EQ(q(-2.5), 0xE);  // -2
  EXPECT_EQ(q(-3.5), 0xC);  // -4
  EXPECT_EQ(q(2.6), 0x3);
  EXPECT_EQ(q(7.0), 0x7);
  EXPECT_EQ(q(7.5), 0x7);  // clamps (rounding alone would give 8)
  EXPECT_EQ(q(1e300), 0x7);
  EXPECT_EQ(q(-8.0), 0x8);
  EXPECT_EQ(q(-8.5), 0x8);
  EXPECT_EQ(q(-100.0), 0x8);
  EXPECT_EQ(q(kInf), 0x7);
  EXPECT_EQ(q(-kInf), 0x8);
  EXPECT_EQ(q(kNaN), 0x0);
  EXPECT_EQ(sign_extend(q(-6.0), 4), -6);
}

TEST(SmallIntTest, SaturateUInt4) {
  auto q = [](double v) { return saturate_to_small_int(ElemType::UInt4, v); };
  EXPECT_EQ(q(-1.0), 0);
  EXPECT_EQ(q(-0.4), 0);
  EXPECT_EQ(q(13.5), 14);
  EXPECT_EQ(q(14.5), 14);
  EXPECT_EQ(q(15.0), 15);
  EXPECT_EQ(q(15.5), 15);
  EXPECT_EQ(q(300.0), 15);
  EXPECT_EQ(q(kInf), 15);
  EXPECT_EQ(q(-kInf), 0);
  EXPECT_EQ(q(kNaN), 0);
}

TEST(SmallIntTest, SaturateInt2AndUInt2) {
  auto i2 = [](double v) { return saturate_to_small_int(ElemType::Int2, v); };
  auto u2 = [](double v) { return saturate_to_small_int(ElemType::UInt2, v); };
  EXPECT_EQ(i2(1.0), 0x1);
  EXPECT_EQ(i2(1.5), 0x1);  // rounds to 2, clamps to 1
  EXPECT_EQ(i2(0.5), 0x0);
  EXPECT_EQ(i2(-0.5), 0x0);
  EXPECT_EQ(i2(-1.0), 0x3);
  EXPECT_EQ(i2(-1.5), 0x2);  // tie -> -2
  EXPECT_EQ(i2(-2.0), 0x2);
  EXPECT_EQ(i2(-7.0), 0x2);
  EXPECT_EQ(i2(kNaN), 0x0);
  EXPECT_EQ(sign_extend(i2(-2.0), 2), -2);
  EXPECT_EQ(u2(2.5), 2);
  EXPECT_EQ(u2(3.7), 3);
  EXPECT_EQ(u2(1.5), 2);
  EXPECT_EQ(u2(-0.4), 0);
  EXPECT_EQ(u2(-kInf), 0);
  EXPECT_EQ(u2(kNaN), 0);
}

TEST(SmallIntTest, RejectsOtherTypes) {
  EXPECT_THROW(saturate_to_small_int(ElemType::Int8, 1.0), Error);
  EXPECT_THROW(cast_to_small_int(ElemType::Float4E2M1, 1.0), Error);
  EXPECT_THROW(wrap_to_small_int(ElemType::UInt8, 1), Error);
}

// ---------------------------------------------------------------------------------------
// Packing helpers

TEST(PackingTest, FourBitLowNibbleFirst) {
  uint8_t buf[2] = {0, 0};
  for (int i = 0; i < 4; ++i) set_packed(buf, i, 4, static_cast<uint8_t>(i + 1));
  EXPECT_EQ(buf[0], 0x21);
  EXPECT_EQ(buf[1], 0x43);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(get_packed(buf, i, 4), i + 1);
  set_packed(buf, 1, 4, 0xF);  // overwrites only its own nibble
  EXPECT_EQ(buf[0], 0xF1);
  set_packed(buf, 2, 4, 0xFE);  // extra bits are masked away
  EXPECT_EQ(buf[1], 0x4E);
  const uint8_t byte = 0xA5;
  EXPECT_EQ(get_packed(&byte, 0, 4), 0x5);
  EXPECT_EQ(get_packed(&byte, 1, 4), 0xA);
}

TEST(PackingTest, TwoBitLowBitsFirst) {
  uint8_t buf[2] = {0xFF, 0xFF};
  const uint8_t fields[8] = {0, 1, 2, 3, 3, 2, 1, 0};
  for (int i = 0; i < 8; ++i) set_packed(buf, i, 2, fields[i]);
  EXPECT_EQ(buf[0], 0xE4);  // 3<<6 | 2<<4 | 1<<2 | 0
  EXPECT_EQ(buf[1], 0x1B);  // 0<<6 | 1<<4 | 2<<2 | 3
  for (int i = 0; i < 8; ++i) EXPECT_EQ(get_packed(buf, i, 2), fields[i]);
  const uint8_t byte = 0xA5;  // 10 10 01 01
  EXPECT_EQ(get_packed(&byte, 0, 2), 1);
  EXPECT_EQ(get_packed(&byte, 1, 2), 1);
  EXPECT_EQ(get_packed(&byte, 2, 2), 2);
  EXPECT_EQ(get_packed(&byte, 3, 2), 2);
}

TEST(PackingTest, SignExtend) {
  EXPECT_EQ(sign_extend(0x0, 4), 0);
  EXPECT_EQ(sign_extend(0x7, 4), 7);
  EXPECT_EQ(sign_extend(0x8, 4), -8);
  EXPECT_EQ(sign_extend(0xF, 4), -1);
  EXPECT_EQ(sign_extend(0x9, 4), -7);
  EXPECT_EQ(sign_extend(0x0, 2), 0);
  EXPECT_EQ(sign_extend(0x1, 2), 1);
  EXPECT_EQ(sign_extend(0x2, 2), -2);
  EXPECT_EQ(sign_extend(0x3, 2), -1);
}

TEST(PackingTest, QuantizedInt4ValuesSurvivePacking) {
  const double inputs[5] = {-8.7, -2.5, 0.4, 6.5, 9.0};
  const int expected[5] = {-8, -2, 0, 6, 7};
  uint8_t buf[3] = {0, 0, 0};
  for (int i = 0; i < 5; ++i)
    set_packed(buf, i, 4, saturate_to_small_int(ElemType::Int4, inputs[i]));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sign_extend(get_packed(buf, i, 4), 4), expected[i]);
  EXPECT_EQ(buf[2] & 0xF0, 0);  // the unused high nibble stays zero
}

}  // namespace
}  // namespace bough
