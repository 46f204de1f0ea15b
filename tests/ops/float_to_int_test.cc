// Floating-point values that reach an integer: every such conversion in kernels and operators
// goes through util::from_double (truncate toward zero, saturate, NaN gives 0), since a plain
// cast is undefined out of the target's range. Expected values are worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "bough/tensor.h"
#include "model_builder.h"
#include "util/from_double.h"

namespace bough {
namespace {

using test::f32;

constexpr int32_t kMax32 = std::numeric_limits<int32_t>::max();
constexpr int32_t kMin32 = std::numeric_limits<int32_t>::lowest();

Tensor i32(test::Dims64 dims, std::vector<int32_t> values) {
  return Tensor::from_vector<int32_t>(ElemType::Int32, Dims(std::span<const int64_t>(dims)),
                                      values);
}

// Gemm of int32 [1, 2] by [2, 1]: 1 * 3 + 2 * 4 = 11, then scaled by alpha (and beta * C).
int32_t gemm_of_eleven(float alpha, const Tensor* c = nullptr, float beta = 1) {
  test::NamedTensors ins{{"a", i32({1, 2}, {1, 2})}, {"b", i32({2, 1}, {3, 4})}};
  if (c) ins.emplace_back("c", *c);
  auto attrs = [&](onnxpb::NodeProto& n) {
    test::set_float(n, "alpha", alpha);
    test::set_float(n, "beta", beta);
  };
  return test::run_node("Gemm", ins, 1, attrs, 13, "float_to_int")[0].data<int32_t>()[0];
}

TEST(FloatToInt, GemmOnIntegersTruncatesAndSaturatesAlphaTimesY) {
  EXPECT_EQ(gemm_of_eleven(0.5f), 5);         // 5.5 truncates toward zero
  EXPECT_EQ(gemm_of_eleven(-0.5f), -5);       // -5.5 too
  EXPECT_EQ(gemm_of_eleven(1e30f), kMax32);   // 1.1e31 saturates
  EXPECT_EQ(gemm_of_eleven(-1e30f), kMin32);  // -1.1e31 too
  EXPECT_EQ(gemm_of_eleven(std::nanf("")), 0);
}

TEST(FloatToInt, GemmOnIntegersWithCSaturatesTheScaledSum) {
  const Tensor c = i32({1, 1}, {5});
  EXPECT_EQ(gemm_of_eleven(2, &c, 0.5f), 24);        // 22 + 2.5 = 24.5 truncates to 24
  EXPECT_EQ(gemm_of_eleven(1, &c, 1e30f), kMax32);   // 11 + 5e30
  EXPECT_EQ(gemm_of_eleven(-1e30f, &c, 1), kMin32);  // -1.1e31 + 5
}

// Pow of an int32 base and a float exponent: the real power, truncated and saturated.
TEST(FloatToInt, PowOfIntegerBaseSaturates) {
  const Tensor y =
      test::run_node("Pow", {{"x", i32({4}, {10, -10, 2, 7})}, {"e", f32({4}, {20, 21, 0.5f, -1})}},
                     1, {}, 15, "float_to_int")[0];
  EXPECT_EQ(y.data<int32_t>()[0], kMax32);  // 1e20
  EXPECT_EQ(y.data<int32_t>()[1], kMin32);  // -1e21
  EXPECT_EQ(y.data<int32_t>()[2], 1);       // sqrt(2) = 1.41...
  EXPECT_EQ(y.data<int32_t>()[3], 0);       // 1/7
}

// Tensor::get_int on floats (sizes and indices read from a float tensor).
TEST(FloatToInt, GetIntOfFloatsTruncatesAndSaturates) {
  const Tensor t = f32({5}, {2.7f, -2.7f, 1e30f, -1e30f, std::nanf("")});
  EXPECT_EQ(t.get_int(0), 2);
  EXPECT_EQ(t.get_int(1), -2);
  EXPECT_EQ(t.get_int(2), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(t.get_int(3), std::numeric_limits<int64_t>::lowest());
  EXPECT_EQ(t.get_int(4), 0);
}

TEST(FloatToInt, StoredAsConvertsOnlyFloatsMeetingIntegers) {
  EXPECT_EQ(util::stored_as<uint8_t>(300.0), 255);  // saturated, not 300 mod 256
  EXPECT_EQ(util::stored_as<uint8_t>(-1.0f), 0);
  EXPECT_EQ(util::stored_as<int8_t>(int64_t{300}), 44);  // integer to integer wraps as a cast
  EXPECT_EQ(util::stored_as<float>(0.1), 0.1f);
}

// MelWeightMatrix edges from huge or NaN hertz are refused before they reach int64.
TEST(FloatToInt, MelWeightMatrixEdgesOutOfRangeAreBadInput) {
  for (float upper : {1e30f, std::numeric_limits<float>::infinity(), std::nanf("")}) {
    test::expect_bad_input([&] {
      test::run_node("MelWeightMatrix",
                     {{"bins", test::i64({}, {4})},
                      {"dft", test::i64({}, {16})},
                      {"rate", test::i64({}, {8000})},
                      {"lower", f32({}, {0})},
                      {"upper", f32({}, {upper})}},
                     1, {}, 17, "float_to_int");
    });
  }
}

}  // namespace
}  // namespace bough
