// The quantization operators on the cases the conformance tests leave out: blocks that do not
// divide the axis, negative axes, float8 without saturation, the precision attribute, per-row
// and per-column parameters, grouped ConvInteger, and the errors. Expected values are worked
// out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "bough/error.h"
#include "bough/session.h"
#include "error_text.h"
#include "ir/float_formats.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Attrs;
using test::Dims64;
using test::doubles_of;
using test::f32;
using test::packed;

template <typename T>
Tensor make(ElemType type, Dims64 dims, std::vector<T> values) {
  return Tensor::from_vector<T>(type, Dims(std::span<const int64_t>(dims)), values);
}
Tensor u8(Dims64 dims, std::vector<uint8_t> v) { return make(ElemType::UInt8, dims, v); }
Tensor i8(Dims64 dims, std::vector<int8_t> v) { return make(ElemType::Int8, dims, v); }

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins, int outputs,
                           const test::Attrs& attrs = {}, int64_t opset = 25, int threads = 1) {
  return test::run_node(op, ins, outputs, attrs, opset, "quant", threads);
}

Tensor run1(const std::string& op, const std::vector<std::pair<std::string, Tensor>>& ins,
            const Attrs& attrs = {}, int64_t opset = 25) {
  return run_op(op, ins, 1, attrs, opset)[0];
}

// ---------------------------------------------------------------------------------------
// QuantizeLinear

TEST(QuantizeLinearTest, BlockedWithAShortLastBlockAndNegativeAxis) {
  // x [2, 5], blocks of 2 along axis -1: scales [2, 3], the last block holds one column.
  Tensor x = f32({2, 5}, {1, 2, 3, 4, 5, -1, -2, -3, -4, -5});
  Tensor s = f32({2, 3}, {1, 2, 4, 0.5f, 1, 2});
  Tensor y = run1("QuantizeLinear", {{"x", x}, {"s", s}}, [](onnxpb::NodeProto& n) {
    test::set_int(n, "axis", -1);
    test::set_int(n, "block_size", 2);
    test::set_int(n, "output_dtype", static_cast<int>(ElemType::Int8));
  });
  ASSERT_EQ(y.type(), ElemType::Int8);
  // Row 0: 1/1, 2/1, 3/2=1.5->2, 4/2=2, 5/4=1.25->1. Row 1: -2, -4, -3, -4, -2.5->-2.
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 2, 2, 2, 1, -2, -4, -3, -4, -2}));
}

TEST(QuantizeLinearTest, PerAxisWithNegativeAxisAndInt4Saturation) {
  Tensor x = f32({2, 3}, {10, -10, 2.5f, 100, -100, 3.5f});
  Tensor s = f32({3}, {1, 1, 1});
  Tensor zp = packed(ElemType::Int4, {3}, {0, 0, 1});
  Tensor y = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "axis", -1); });
  ASSERT_EQ(y.type(), ElemType::Int4);
  // 10 -> 7, -10 -> -8, 2.5 -> 2 (+1) = 3; 100 -> 7, -100 -> -8, 3.5 -> 4 (+1) = 5.
  EXPECT_EQ(doubles_of(y), (std::vector<double>{7, -8, 3, 7, -8, 5}));
}

// From version 24 the scale may be float8e8m0, 2^(byte - 127): 0x80 is 2, 0x7E is 0.5. The
// division is then carried out in x's type (no precision of its own to round to).
TEST(QuantizeLinearTest, PowerOfTwoScaleFromVersion24) {
  Tensor two = make<uint8_t>(ElemType::Float8E8M0, {}, {0x80});
  auto to_int8 = [](onnxpb::NodeProto& n) {
    test::set_int(n, "output_dtype", static_cast<int>(ElemType::Int8));
  };
  // 3/2 = 1.5 -> 2 and -5/2 = -2.5 -> -2 (ties to even), 1/2 -> 0, 300/2 = 150 -> 127.
  Tensor y = run1("QuantizeLinear", {{"x", f32({4}, {3, -5, 1, 300})}, {"s", two}}, to_int8, 24);
  ASSERT_EQ(y.type(), ElemType::Int8);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{2, -2, 0, 127}));
  // int32 x divided by 0.5: -7 -> -14, 9 -> 18.
  Tensor half = make<uint8_t>(ElemType::Float8E8M0, {}, {0x7E});
  Tensor xi = make<int32_t>(ElemType::Int32, {2}, {-7, 9});
  y = run1("QuantizeLinear", {{"x", xi}, {"s", half}}, to_int8, 24);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{-14, 18}));
  // Version 23 does not allow the type, version 24 does: a run at 23 has a meaning and goes
  // ahead with a warning (`bough check` calls it an error; run_meaning_test.cc). 3/2 -> 2.
  y = run1("QuantizeLinear", {{"x", f32({1}, {3})}, {"s", two}}, to_int8, 23);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{2}));
}

TEST(QuantizeLinearTest, Float8WithoutSaturation) {
  Tensor x = f32({3}, {1000, -1000, 2});
  Tensor s = f32({}, {1});
  Tensor zp = make<uint8_t>(ElemType::Float8E4M3FN, {}, {0});
  Tensor sat = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}});
  EXPECT_EQ(sat.data<uint8_t>()[0], 0x7E);  // 448
  EXPECT_EQ(sat.data<uint8_t>()[1], 0xFE);
  Tensor nosat = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}},
                      [](onnxpb::NodeProto& n) { test::set_int(n, "saturate", 0); });
  EXPECT_EQ(nosat.data<uint8_t>()[0], 0x7F);  // NaN
  EXPECT_EQ(nosat.data<uint8_t>()[1], 0xFF);
  EXPECT_EQ(nosat.data<uint8_t>()[2], 0x40);  // 2
}

TEST(QuantizeLinearTest, PrecisionAttributeRoundsTheDivision) {
  // 2049 is not a float16: in float16 precision it becomes 2048 before the division.
  Tensor x = f32({2}, {2049, 3});
  Tensor s = f32({}, {1});
  Tensor zp = make<uint16_t>(ElemType::UInt16, {}, {0});
  Tensor y = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{2049, 3}));
  y = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}}, [](onnxpb::NodeProto& n) {
    test::set_int(n, "precision", static_cast<int>(ElemType::Float16));
  });
  EXPECT_EQ(doubles_of(y), (std::vector<double>{2048, 3}));
}

TEST(QuantizeLinearTest, Int32InputAndNaN) {
  Tensor x = make<int32_t>(ElemType::Int32, {3}, {300, -7, 5});
  Tensor s = f32({}, {2});
  Tensor y = run1("QuantizeLinear", {{"x", x}, {"s", s}});  // default output: uint8
  ASSERT_EQ(y.type(), ElemType::UInt8);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{150, 0, 2}));  // 2.5 -> 2
  Tensor xf = f32({2}, {std::numeric_limits<float>::quiet_NaN(), 4});
  Tensor zp = i8({}, {5});
  y = run1("QuantizeLinear", {{"x", xf}, {"s", s}, {"zp", zp}});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{0, 7}));
}

TEST(QuantizeLinearTest, OlderOpsetsPerTensor) {
  Tensor x = f32({3}, {-1, 0.5f, 1.5f});
  Tensor s = f32({}, {0.5f});
  Tensor zp = i8({}, {-1});
  Tensor y = run1("QuantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}}, {}, 10);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{-3, 0, 2}));  // -2, 1, 3 plus -1
}

TEST(QuantizeLinearTest, Errors) {
  Tensor x = f32({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7});
  // output_dtype disagrees with the zero point: refused by the check (inference).
  test::expect_invalid_model([&] {
    run1("QuantizeLinear", {{"x", x}, {"s", f32({}, {1})}, {"zp", u8({}, {0})}},
         [](onnxpb::NodeProto& n) {
           test::set_int(n, "output_dtype", static_cast<int>(ElemType::Int8));
         });
  });
  // Per-axis scale of the wrong length.
  test::expect_error_mentioning(
      [&] {
        return run1("QuantizeLinear", {{"x", x}, {"s", f32({3}, {1, 1, 1})}});
      },
      "neither a scalar nor");
  // Axis out of range.
  test::expect_error_mentioning(
      [&] {
        return run1("QuantizeLinear", {{"x", x}, {"s", f32({2}, {1, 1})}},
                    [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 2); });
      },
      "axis 2 is out of range");
  // Blocked scale of the wrong shape: 4 columns in blocks of 3 need 2 blocks.
  test::expect_error_mentioning(
      [&] {
        return run1("QuantizeLinear", {{"x", x}, {"s", f32({2, 1}, {1, 1})}},
                    [](onnxpb::NodeProto& n) {
                      test::set_int(n, "axis", 1);
                      test::set_int(n, "block_size", 3);
                    });
      },
      "must have shape [2,2]");
  // Zero point shape differs from the scale's.
  test::expect_error_mentioning(
      [&] {
        return run1("QuantizeLinear",
                    {{"x", x}, {"s", f32({4}, {1, 1, 1, 1})}, {"zp", u8({2}, {0, 0})}});
      },
      "does not match the scale's shape");
  // A bad output_dtype (float is not in T3) is refused by the check.
  test::expect_invalid_model([&] {
    run1("QuantizeLinear", {{"x", x}, {"s", f32({}, {1})}}, [](onnxpb::NodeProto& n) {
      test::set_int(n, "output_dtype", static_cast<int>(ElemType::Float));
    });
  });
}

TEST(QuantizeLinearTest, ThreadsSplitPackedOutputsAtByteBoundaries) {
  // 3 x 100001 elements, per-axis scales along axis 0, int4 and uint2 outputs, 4 threads:
  // every element must match the element-by-element rule (chunks never share a byte).
  const int64_t cols = 100001;
  std::vector<float> xv(static_cast<size_t>(3 * cols));
  for (size_t i = 0; i < xv.size(); ++i)
    xv[i] = static_cast<float>(static_cast<int64_t>(i % 37) - 18) * 0.37f;
  Tensor x = f32({3, cols}, xv);
  const float scales[3] = {0.5f, 1.0f, 2.0f};
  for (ElemType t : {ElemType::Int4, ElemType::UInt2}) {
    Tensor zp = packed(t, {3}, {1, 0, 1});
    Tensor y = run_op(
        "QuantizeLinear", {{"x", x}, {"s", f32({3}, {0.5f, 1, 2})}, {"zp", zp}}, 1,
        [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 0); }, 25, 4)[0];
    ASSERT_EQ(y.type(), t);
    int64_t mismatches = 0;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const int64_t row = i / cols;
      const double q =
          std::nearbyint(static_cast<double>(xv[static_cast<size_t>(i)] / scales[row])) +
          (row == 1 ? 0 : 1);
      const uint8_t want = saturate_to_small_int(t, q);
      if (get_packed(y.data<uint8_t>(), i, elem_bits(t)) != want) ++mismatches;
    }
    EXPECT_EQ(mismatches, 0) << elem_name(t);
  }
}

// ---------------------------------------------------------------------------------------
// DequantizeLinear

TEST(DequantizeLinearTest, BlockedShortLastBlockToFloat16) {
  Tensor x = u8({1, 5}, {10, 20, 30, 40, 50});
  Tensor s = f32({1, 3}, {0.5f, 2, 0.1f});
  Tensor zp = u8({1, 3}, {10, 0, 50});
  Tensor y = run1("DequantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}}, [](onnxpb::NodeProto& n) {
    test::set_int(n, "axis", 1);
    test::set_int(n, "block_size", 2);
    test::set_int(n, "output_dtype", static_cast<int>(ElemType::Float16));
  });
  ASSERT_EQ(y.type(), ElemType::Float16);
  // (10-10)*.5, (20-10)*.5, 30*2, 40*2, (50-50)*0.1.
  EXPECT_EQ(doubles_of(y), (std::vector<double>{0, 5, 60, 80, 0}));
}

TEST(DequantizeLinearTest, PerAxisInt2AndInt32) {
  Tensor x = packed(ElemType::Int2, {2, 2}, {1, 2, 3, 0});  // 1, -2, -1, 0
  Tensor s = f32({2}, {3, 0.5f});
  Tensor zp = packed(ElemType::Int2, {2}, {3, 0});  // -1, 0
  Tensor y = run1("DequantizeLinear", {{"x", x}, {"s", s}, {"zp", zp}},
                  [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 0); });
  EXPECT_EQ(doubles_of(y), (std::vector<double>{6, -3, -0.5, 0}));
  Tensor xi = make<int32_t>(ElemType::Int32, {2}, {-7, 1 << 20});
  y = run1("DequantizeLinear", {{"x", xi}, {"s", f32({}, {0.25f})}});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{-1.75, 262144}));
}

// Version 24's float8e8m0 scales, 2^(byte - 127), per block: x * 2 for the first block of
// two, x * 0.5 for the second. The output cannot take the scale's type, so output_dtype is
// needed.
TEST(DequantizeLinearTest, PowerOfTwoScalesFromVersion24) {
  Tensor x = i8({1, 4}, {4, -6, 3, 1});
  Tensor s = make<uint8_t>(ElemType::Float8E8M0, {1, 2}, {0x80, 0x7E});
  auto blocked = [](ElemType out) {
    return [out](onnxpb::NodeProto& n) {
      test::set_int(n, "axis", 1);
      test::set_int(n, "block_size", 2);
      if (out != ElemType::Undefined) test::set_int(n, "output_dtype", static_cast<int>(out));
    };
  };
  Tensor y = run1("DequantizeLinear", {{"x", x}, {"s", s}}, blocked(ElemType::BFloat16), 24);
  ASSERT_EQ(y.type(), ElemType::BFloat16);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{8, -12, 1.5, 0.5}));
  // Without output_dtype the output would be float8e8m0, which T3 does not allow.
  test::expect_invalid_model([&] {
    run1("DequantizeLinear", {{"x", x}, {"s", s}}, blocked(ElemType::Undefined), 24);
  });
  // Version 23 does not allow the scale type, version 24 does: a run at 23 has a meaning
  // and goes ahead with a warning (`bough check` calls it an error; run_meaning_test.cc).
  Tensor y23 = run1("DequantizeLinear", {{"x", x}, {"s", s}}, blocked(ElemType::Float), 23);
  ASSERT_EQ(y23.type(), ElemType::Float);
  EXPECT_EQ(doubles_of(y23), (std::vector<double>{8, -12, 1.5, 0.5}));
}

TEST(DequantizeLinearTest, Errors) {
  // Both are refused by the check against the signature (T1) before they run.
  test::expect_invalid_model([&] {  // zero point of another type
    run1("DequantizeLinear", {{"x", u8({2}, {1, 2})}, {"s", f32({}, {1})}, {"zp", i8({}, {0})}});
  });
  test::expect_invalid_model([&] {
    run1("DequantizeLinear", {{"x", f32({2}, {1, 2})}, {"s", f32({}, {1})}});
  });
}

// ---------------------------------------------------------------------------------------
// DynamicQuantizeLinear

TEST(DynamicQuantizeLinearTest, AllZerosAndNaN) {
  auto out = run_op("DynamicQuantizeLinear", {{"x", f32({3}, {0, 0, 0})}}, 3, {}, 11);
  EXPECT_EQ(doubles_of(out[0]), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(out[1].data<float>()[0], 0.0f);
  EXPECT_EQ(out[2].data<uint8_t>()[0], 0);
  // NaN is left out of the range: [0, 2.55] gives scale 0.01 and zero point 0.
  out = run_op("DynamicQuantizeLinear", {{"x", f32({3}, {std::nanf(""), 2.55f, 1})}}, 3, {}, 11);
  EXPECT_EQ(doubles_of(out[0]), (std::vector<double>{0, 255, 100}));
  EXPECT_FLOAT_EQ(out[1].data<float>()[0], 2.55f / 255.0f);
}

// ---------------------------------------------------------------------------------------
// MatMulInteger, QLinearMatMul, ConvInteger

TEST(MatMulIntegerTest, PerRowAndPerColumnZeroPoints) {
  Tensor a = u8({2, 2}, {1, 2, 3, 4});
  Tensor b = i8({2, 2}, {1, -1, 2, 0});
  // a - [1, 3] per row = [[0, 1], [0, 1]]; b - [1, -1] per column = [[0, 0], [1, 1]].
  Tensor y = run1("MatMulInteger",
                  {{"a", a}, {"b", b}, {"az", u8({2}, {1, 3})}, {"bz", i8({2}, {1, -1})}}, {}, 10);
  ASSERT_EQ(y.type(), ElemType::Int32);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 1, 1, 1}));
  // Without zero points: [[5, -1], [11, -3]].
  y = run1("MatMulInteger", {{"a", a}, {"b", b}}, {}, 10);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{5, -1, 11, -3}));
}

TEST(QLinearMatMulTest, PerRowAndPerColumnScales) {
  Tensor a = u8({2, 1}, {10, 20});
  Tensor b = u8({1, 2}, {3, 5});
  // (a - 0) @ (b - 1) = [[20, 40], [40, 80]]; scales a [1, 0.5], b [0.5, 0.25], y 1, zp 3:
  // [[20*0.5, 40*0.25], [40*0.25, 80*0.125]] + 3 = [[13, 13], [13, 13]].
  Tensor y = run1("QLinearMatMul", {{"a", a},
                                    {"as", f32({2}, {1, 0.5f})},
                                    {"az", u8({2}, {0, 0})},
                                    {"b", b},
                                    {"bs", f32({2}, {0.5f, 0.25f})},
                                    {"bz", u8({2}, {1, 1})},
                                    {"ys", f32({}, {1})},
                                    {"yz", u8({}, {3})}});
  EXPECT_EQ(doubles_of(y), (std::vector<double>{13, 13, 13, 13}));
}

TEST(ConvIntegerTest, GroupsAndPerChannelWeightZeroPoints) {
  // Two channels, group 2, 1x1 kernels: y[m] = (x[m] - 1) * (w[m] - wz[m]).
  Tensor x = u8({1, 2, 1, 2}, {3, 5, 7, 9});
  Tensor w = i8({2, 1, 1, 1}, {4, -2});
  Tensor y = run1(
      "ConvInteger", {{"x", x}, {"w", w}, {"xz", u8({}, {1})}, {"wz", i8({2}, {1, 0})}},
      [](onnxpb::NodeProto& n) { test::set_int(n, "group", 2); }, 10);
  ASSERT_EQ(y.type(), ElemType::Int32);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{6, 12, -12, -16}));
}

TEST(ConvIntegerTest, SumsLongerThanFloatHoldsStayExact) {
  // 301 channels, 1x1 kernel: x 0 with x_zero_point 255 and w 255 give 301 products of
  // -65025, summing to -19,572,525: odd and above 2^24, so no float holds it.
  const int64_t C = 301;
  Tensor x = u8({1, C, 1, 1}, std::vector<uint8_t>(C, 0));
  Tensor w = u8({1, C, 1, 1}, std::vector<uint8_t>(C, 255));
  Tensor y = run1("ConvInteger", {{"x", x}, {"w", w}, {"xz", u8({}, {255})}}, {}, 10);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{-19572525}));
}

TEST(ConvIntegerTest, GroupsWithLongSumsMatchAReferenceLoop) {
  // Group 2 of 150 input channels each and a 1x2 kernel: 300 terms per sum, more than one
  // exact float product takes, on random int8 x and w with per-channel weight zero points.
  const int64_t G = 2, CG = 150, MG = 3, W = 5, KW = 2, OW = W - KW + 1;
  test::Rng rng(41);
  std::vector<int8_t> xv(static_cast<size_t>(G * CG * W)),
      wv(static_cast<size_t>(G * MG * CG * KW));
  std::vector<int8_t> wz(static_cast<size_t>(G * MG));
  for (int8_t& v : xv) v = static_cast<int8_t>(rng.uniform(-128, 127));
  for (int8_t& v : wv) v = static_cast<int8_t>(rng.uniform(-128, 127));
  for (int8_t& v : wz) v = static_cast<int8_t>(rng.uniform(-128, 127));
  const int8_t xz = -7;
  Tensor y = run1(
      "ConvInteger",
      {{"x", i8({1, G * CG, 1, W}, xv)},
       {"w", i8({G * MG, CG, 1, KW}, wv)},
       {"xz", i8({}, {xz})},
       {"wz", i8({G * MG}, wz)}},
      [](onnxpb::NodeProto& n) { test::set_int(n, "group", G); }, 10);
  std::vector<double> want;
  for (int64_t m = 0; m < G * MG; ++m)
    for (int64_t o = 0; o < OW; ++o) {
      int64_t sum = 0;
      for (int64_t c = 0; c < CG; ++c)
        for (int64_t k = 0; k < KW; ++k) {
          const int64_t xi = ((m / MG) * CG + c) * W + o + k, wi = (m * CG + c) * KW + k;
          sum += (xv[static_cast<size_t>(xi)] - xz) *
                 (wv[static_cast<size_t>(wi)] - wz[static_cast<size_t>(m)]);
        }
      want.push_back(static_cast<double>(sum));
    }
  EXPECT_EQ(doubles_of(y), want);
}

TEST(ConvIntegerTest, SameUpperPaddingHoldsTheZeroPoint) {
  // 1x3 image, 1x2 kernel of ones, SAME_UPPER: the pad on the right reads x_zero_point.
  Tensor x = u8({1, 1, 1, 3}, {5, 6, 7});
  Tensor w = u8({1, 1, 1, 2}, {1, 1});
  Tensor y = run1(
      "ConvInteger", {{"x", x}, {"w", w}, {"xz", u8({}, {5})}},
      [](onnxpb::NodeProto& n) {
        auto* a = n.add_attribute();
        a->set_name("auto_pad");
        a->set_type(onnxpb::AttributeProto::STRING);
        a->set_s("SAME_UPPER");
      },
      10);
  EXPECT_EQ(doubles_of(y), (std::vector<double>{1, 3, 2}));  // 0+1, 1+2, 2+0
}

}  // namespace
}  // namespace bough
