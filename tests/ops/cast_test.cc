// Cast rounds once, as numpy's astype (the ONNX reference) and C++ conversions do: values
// chosen so that rounding through an intermediate type lands on a tie and goes the other way.
#include <gtest/gtest.h>

#include <cstdint>

#include "ir/float_formats.h"
#include "model_builder.h"

namespace bough {
namespace {

Tensor cast_op(const Tensor& x, ElemType to) {
  return test::run_node(
      "Cast", {{"x", x}}, 1,
      [&](onnxpb::NodeProto& n) { test::set_int(n, "to", static_cast<int64_t>(to)); }, 21,
      "cast")[0];
}

// 2^60 + 2^36 + 1 lies just above the midpoint of the float neighbours 2^60 and 2^60 + 2^37,
// so it rounds up. Through double it first becomes 2^60 + 2^36, the exact midpoint, which
// ties to even: 2^60.
TEST(Cast, Int64ToFloatRoundsOnce) {
  const int64_t v = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  const float want = 0x1p60f + 0x1p37f;
  EXPECT_EQ(cast_op(test::i64({1}, {v}), ElemType::Float).data<float>()[0], want);
  Tensor u(ElemType::UInt64, Dims{1});
  u.data<uint64_t>()[0] = static_cast<uint64_t>(v);
  EXPECT_EQ(cast_op(u, ElemType::Float).data<float>()[0], want);
}

// 1 + 2^-11 + 2^-40 lies just above the midpoint of the float16 neighbours 1 and 1 + 2^-10,
// so it rounds up. Through float it first becomes 1 + 2^-11, the exact midpoint: 1.
TEST(Cast, DoubleToFloat16RoundsOnce) {
  Tensor x(ElemType::Double, Dims{2});
  x.data<double>()[0] = 1.0 + 0x1p-11 + 0x1p-40;
  x.data<double>()[1] = -(1.0 + 0x1p-11 + 0x1p-40);
  const Tensor y = cast_op(x, ElemType::Float16);
  EXPECT_EQ(half_to_float(y.data<uint16_t>()[0]), 1.0f + 0x1p-10f);
  EXPECT_EQ(half_to_float(y.data<uint16_t>()[1]), -(1.0f + 0x1p-10f));
}

}  // namespace
}  // namespace bough
