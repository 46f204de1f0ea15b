// QLinearConv beyond its one official test: per-channel weight scales and zero points with
// group > 1 and a bias, rounding half to even with saturation at both ends, padding that holds
// x_zero_point, and the errors. Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "error_text.h"
#include "model_builder.h"

namespace bough::test {
namespace {

template <typename T>
Tensor make(ElemType type, Dims64 dims, std::vector<T> values) {
  return Tensor::from_vector<T>(type, Dims(std::span<const int64_t>(dims)), values);
}
Tensor u8(Dims64 dims, std::vector<uint8_t> v) { return make(ElemType::UInt8, dims, v); }
Tensor i8(Dims64 dims, std::vector<int8_t> v) { return make(ElemType::Int8, dims, v); }
Tensor i32(Dims64 dims, std::vector<int32_t> v) { return make(ElemType::Int32, dims, v); }

Tensor qlinear_conv(const NamedTensors& ins, const Attrs& attrs = nullptr) {
  return run_node("QLinearConv", ins, 1, attrs, 10, "qlinear_conv")[0];
}

TEST(QLinearConvTest, PerChannelScalesAndZeroPointsWithGroupsAndBias) {
  // x (1, 2, 1, 3) uint8, x_zero_point 10: channel 0 [0, 2, 4], channel 1 [10, 11, 12] shifted.
  // w (4, 1, 1, 2) int8, group 2 (channels 0-1 read x's channel 0, 2-3 its channel 1), minus
  // w_zero_point [1, -1, 0, 2]: [1, 2], [0, 1], [1, 1], [2, 0].
  // Sums at the two positions: m0 [0+4, 2+8] = [4, 10]; m1 [2, 4]; m2 [21, 23]; m3 [20, 22].
  // Plus B [1, -2, 0, 3]: [5, 11], [0, 2], [21, 23], [23, 25].
  // x_scale * w_scale / y_scale = 0.5 * [1, 2, 0.5, 0.25] / 0.25 = [2, 4, 1, 0.5]:
  //   [10, 22], [0, 8], [21, 23], [11.5, 12.5] -> half to even [12, 12].
  // Plus y_zero_point -5 (int8): [5, 17], [-5, 3], [16, 18], [7, 7].
  Tensor y = qlinear_conv({{"x", u8({1, 2, 1, 3}, {10, 12, 14, 20, 21, 22})},
                           {"x_scale", f32({}, {0.5f})},
                           {"x_zero_point", u8({}, {10})},
                           {"w", i8({4, 1, 1, 2}, {2, 3, -1, 0, 1, 1, 4, 2})},
                           {"w_scale", f32({4}, {1, 2, 0.5f, 0.25f})},
                           {"w_zero_point", i8({4}, {1, -1, 0, 2})},
                           {"y_scale", f32({}, {0.25f})},
                           {"y_zero_point", i8({}, {-5})},
                           {"B", i32({4}, {1, -2, 0, 3})}},
                          [](onnxpb::NodeProto& n) { set_int(n, "group", 2); });
  ASSERT_EQ(y.type(), ElemType::Int8);
  EXPECT_EQ(y.shape(), (Dims{1, 4, 1, 2}));
  EXPECT_EQ(doubles_of(y), (std::vector<double>{5, 17, -5, 3, 16, 18, 7, 7}));
}

TEST(QLinearConvTest, RoundsHalfToEvenAndSaturates) {
  // 1x1 kernel w = 3, scales 0.5, 1, 1: x * 1.5 for x = [5, 7, -1, 110, -128] is
  // [7.5, 10.5, -1.5, 165, -192] -> [8, 10, -2, 165, -192]; plus 100 (uint8):
  // [108, 110, 98, 265 -> 255, -92 -> 0].
  Tensor y = qlinear_conv({{"x", i8({1, 1, 1, 5}, {5, 7, -1, 110, -128})},
                           {"x_scale", f32({}, {0.5f})},
                           {"x_zero_point", i8({}, {0})},
                           {"w", i8({1, 1, 1, 1}, {3})},
                           {"w_scale", f32({}, {1})},
                           {"w_zero_point", i8({}, {0})},
                           {"y_scale", f32({}, {1})},
                           {"y_zero_point", u8({}, {100})}});
  ASSERT_EQ(y.type(), ElemType::UInt8);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{108, 110, 98, 255, 0}));
}

TEST(QLinearConvTest, PaddingHoldsTheInputZeroPointAndStridesApply) {
  // x [7, 9, 11] with x_zero_point 7 shifts to [0, 2, 4]; pads of 1 on both sides (which hold
  // 7, i.e. 0 after the shift) give [0, 0, 2, 4, 0]; the kernel [1, 2, 3] at stride 2 reads
  // [0, 0, 2] -> 6 and [2, 4, 0] -> 10. Unit scales, y_zero_point 1: [7, 11].
  Tensor y = qlinear_conv({{"x", u8({1, 1, 1, 3}, {7, 9, 11})},
                           {"x_scale", f32({}, {1})},
                           {"x_zero_point", u8({}, {7})},
                           {"w", u8({1, 1, 1, 3}, {1, 2, 3})},
                           {"w_scale", f32({}, {1})},
                           {"w_zero_point", u8({}, {0})},
                           {"y_scale", f32({}, {1})},
                           {"y_zero_point", u8({}, {1})}},
                          [](onnxpb::NodeProto& n) {
                            set_ints(n, "pads", {0, 1, 0, 1});
                            set_ints(n, "strides", {1, 2});
                          });
  EXPECT_EQ(doubles_of(y), (std::vector<double>{7, 11}));
}

NamedTensors one_channel_inputs(Tensor w_scale, Tensor bias) {
  NamedTensors ins{{"x", u8({1, 1, 2, 2}, {1, 2, 3, 4})},
                   {"x_scale", f32({}, {1})},
                   {"x_zero_point", u8({}, {0})},
                   {"w", u8({2, 1, 1, 1}, {1, 1})},
                   {"w_scale", std::move(w_scale)},
                   {"w_zero_point", u8({}, {0})},
                   {"y_scale", f32({}, {1})},
                   {"y_zero_point", u8({}, {0})}};
  if (bias.defined()) ins.emplace_back("B", std::move(bias));
  return ins;
}

TEST(QLinearConvTest, ScalesAndBiasOfTheWrongLengthAreRefused) {
  // The message names the model and the node, then the problem.
  expect_error_mentioning(
      [] {
        qlinear_conv(one_channel_inputs(f32({3}, {1, 1, 1}), Tensor()));
      },
      "m.onnx: main/QLinearConv: QLinearConv: w_scale of shape [3] must be a scalar or hold one "
      "value per output channel (2)",
      ErrorKind::BadInput);
  expect_error_mentioning(
      [] {
        qlinear_conv(one_channel_inputs(f32({}, {1}), i32({3}, {1, 2, 3})));
      },
      "QLinearConv: B must be a 1-D int32 tensor of 2 values (one per output channel), got int32 "
      "[3]",
      ErrorKind::BadInput);
}

}  // namespace
}  // namespace bough::test
