// E8M0 (the MX formats' shared scale), float4 e2m1 and the 4- and 2-bit integers, as Cast and
// QuantizeLinear write them. Expected values are worked out by hand from the ONNX spec (Cast's
// tables, docs/docs/technical/float4.md, int4.md, the MX specification's E8M0), IEEE 754
// round-to-nearest-even and, where the spec leaves a case open, onnx's Cast test data
// (int4/int2 wrap, float4 NaN). The wider floats are in float_formats_test.cc.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "bough/error.h"
#include "ir/float_formats.h"

namespace bough {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr E8M0Rounding kUp = E8M0Rounding::Up;
constexpr E8M0Rounding kDown = E8M0Rounding::Down;
constexpr E8M0Rounding kNearest = E8M0Rounding::Nearest;

float p2(int e) { return std::ldexp(1.0f, e); }

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
