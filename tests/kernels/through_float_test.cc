// kernels::through_float: float16/bfloat16 inputs reach the computation as float and its
// result is rounded back to nearest, ties to even; other types pass through untouched. The
// expected bit patterns are worked out by hand in the comments.
#include "kernels/through_float.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <vector>

namespace bough::kernels {
namespace {

Tensor bits(ElemType type, std::vector<uint16_t> values) {
  const int64_t n = static_cast<int64_t>(values.size());
  return Tensor::from_vector<uint16_t>(type, Dims{n}, values);
}

std::vector<uint16_t> bits_of(const Tensor& t) {
  return std::vector<uint16_t>(t.data<uint16_t>(), t.data<uint16_t>() + t.numel());
}

// y[i] = f(x[i]) in float, for a float tensor.
template <typename F>
Tensor map_float(const Tensor& x, F f) {
  EXPECT_EQ(x.type(), ElemType::Float);
  Tensor y(ElemType::Float, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) y.data<float>()[i] = f(x.data<float>()[i]);
  return y;
}

TEST(ThroughFloat, Float16RoundsToNearestTiesToEven) {
  // 5 (0x4500) / 7 = 0.714285...: in [0.5, 1) float16 steps by 2^-11, and 2048 * 5/7 =
  // 1462.86 rounds up to 1463, i.e. mantissa 1463 - 1024 = 439 = 0x1B7 under exponent
  // 0b01110: 0x39B7 (truncation would give 0x39B6).
  // 1 (0x3C00) + 2^-11 lies halfway between 1 and 1 + 2^-10: the even one, 0x3C00.
  // 1 + 2^-10 (0x3C01) + 2^-11 lies halfway between 0x3C01 and 0x3C02: the even 0x3C02.
  const Tensor x = bits(ElemType::Float16, {0x4500, 0x3C00, 0x3C01});
  const std::array<float, 3> add{0, 1.0f / 2048, 1.0f / 2048};
  const std::array<float, 3> div{7, 1, 1};
  const Tensor y = through_float(
      [&](const Tensor& xf) {
        int64_t i = 0;
        return map_float(xf, [&](float v) {
          const float r = v / div[i] + add[i];
          ++i;
          return r;
        });
      },
      x);
  EXPECT_EQ(y.type(), ElemType::Float16);
  EXPECT_EQ(bits_of(y), (std::vector<uint16_t>{0x39B7, 0x3C00, 0x3C02}));
}

TEST(ThroughFloat, BFloat16RoundsToNearest) {
  // x / 3 for 1, 2, 3 (0x3F80, 0x4000, 0x4040). 1/3 in float is 0x3EAAAAAB; bfloat16 keeps
  // the top 16 bits and the dropped 0xAAAB is more than half, so 0x3EAB (truncation: 0x3EAA).
  // 2/3 = 0x3F2AAAAB likewise gives 0x3F2B; 3/3 = 1 is exact, 0x3F80.
  const Tensor x = bits(ElemType::BFloat16, {0x3F80, 0x4000, 0x4040});
  const Tensor y = through_float(
      [](const Tensor& xf) { return map_float(xf, [](float v) { return v / 3; }); }, x);
  EXPECT_EQ(y.type(), ElemType::BFloat16);
  EXPECT_EQ(bits_of(y), (std::vector<uint16_t>{0x3EAB, 0x3F2B, 0x3F80}));
}

TEST(ThroughFloat, EveryInputReachesTheComputationInFloat) {
  const Tensor x = bits(ElemType::Float16, {0x3C00});      // 1
  const Tensor scale = bits(ElemType::Float16, {0x4000});  // 2
  const Tensor bias = bits(ElemType::Float16, {0x3800});   // 0.5
  const Tensor* absent = nullptr;
  const Tensor y = through_float(
      [](const Tensor& xf, const Tensor& s, const Tensor* b, const Tensor* none) {
        EXPECT_EQ(s.type(), ElemType::Float);
        EXPECT_NE(b, nullptr);
        EXPECT_EQ(b->type(), ElemType::Float);
        EXPECT_EQ(none, nullptr);
        return map_float(xf, [&](float v) { return v * s.data<float>()[0] + b->data<float>()[0]; });
      },
      x, scale, &bias, absent);
  EXPECT_EQ(bits_of(y), (std::vector<uint16_t>{0x4100}));  // 1 * 2 + 0.5 = 2.5 = 0x4100
}

TEST(ThroughFloat, OtherTypesPassThroughUntouched) {
  const Tensor x = Tensor::from_vector<double>(ElemType::Double, Dims{2}, {1.0, 3.0});
  const Tensor w = Tensor::from_vector<int32_t>(ElemType::Int32, Dims{2}, {4, 5});
  const Tensor y = through_float(
      [&](const Tensor& a, const Tensor& b) {
        EXPECT_EQ(a.raw(), x.raw());  // the same buffers, not copies
        EXPECT_EQ(b.raw(), w.raw());
        Tensor r(ElemType::Double, a.shape());
        for (int64_t i = 0; i < 2; ++i)
          r.data<double>()[i] = a.data<double>()[i] / 3 + b.data<int32_t>()[i];
        return r;
      },
      x, w);
  EXPECT_EQ(y.type(), ElemType::Double);
  EXPECT_DOUBLE_EQ(y.data<double>()[0], 1.0 / 3 + 4);
  EXPECT_DOUBLE_EQ(y.data<double>()[1], 1.0 + 5);
}

TEST(ThroughFloat, SeveralOutputsAreEachRounded) {
  const Tensor x = bits(ElemType::BFloat16, {0x3F80});  // 1
  const auto [third, absent] = through_float(
      [](const Tensor& xf) {
        return std::array<Tensor, 2>{map_float(xf, [](float v) { return v / 3; }), Tensor()};
      },
      x);
  EXPECT_EQ(bits_of(third), (std::vector<uint16_t>{0x3EAB}));  // as above
  EXPECT_FALSE(absent.defined());
}

TEST(ThroughFloat, ComputedInFloatIntoWritesTheRoundedResultIntoOut) {
  const Tensor x = bits(ElemType::Float16, {0x4500});  // 5
  Tensor out;
  computed_in_float_into(
      out, [](const Tensor& xf, Tensor& y) { y = map_float(xf, [](float v) { return v / 7; }); },
      x);
  EXPECT_EQ(out.type(), ElemType::Float16);
  EXPECT_EQ(bits_of(out), (std::vector<uint16_t>{0x39B7}));  // 5/7, as above
}

TEST(ThroughFloat, WhichTypesAreComputedInFloat) {
  EXPECT_TRUE(is_narrow_float(ElemType::Float16));
  EXPECT_TRUE(is_narrow_float(ElemType::BFloat16));
  EXPECT_FALSE(is_narrow_float(ElemType::Float));
  EXPECT_FALSE(is_narrow_float(ElemType::Float8E4M3FN));
  for (ElemType t : {ElemType::Float, ElemType::Double, ElemType::Float16, ElemType::BFloat16})
    EXPECT_TRUE(is_computed_float(t)) << elem_name(t);
  for (ElemType t : {ElemType::Int32, ElemType::Float8E5M2, ElemType::Float4E2M1, ElemType::Bool})
    EXPECT_FALSE(is_computed_float(t)) << elem_name(t);
}

TEST(ThroughFloat, WidenAndNarrowTo) {
  const Tensor h = bits(ElemType::Float16, {0x3800});  // 0.5
  EXPECT_EQ(widen(h).type(), ElemType::Float);
  EXPECT_EQ(widen(h).data<float>()[0], 0.5f);
  const Tensor f = Tensor::from_vector<float>(ElemType::Float, Dims{1}, {1.0f / 3});
  EXPECT_EQ(widen(f).raw(), f.raw());
  EXPECT_EQ(bits_of(narrow_to(f, ElemType::BFloat16)), (std::vector<uint16_t>{0x3EAB}));
  EXPECT_EQ(narrow_to(f, ElemType::Float).raw(), f.raw());
}

}  // namespace
}  // namespace bough::kernels
