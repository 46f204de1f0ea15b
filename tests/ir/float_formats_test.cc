// float16, bfloat16 and the float8 formats. Expected values are worked out by hand from the
// ONNX spec (Cast's float8 saturate tables, docs/docs/technical/float8.md) and IEEE 754
// round-to-nearest-even. E8M0, float4 and the small integers are in small_formats_test.cc.
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

}  // namespace
}  // namespace bough
