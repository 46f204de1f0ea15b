// Operators that move elements run on sub-byte types (int4, uint4, float4e2m1), which their
// schemas allow: Transpose and Pad from opset 21, TensorScatter at 24. Fields worked by hand.
#include <gtest/gtest.h>

#include "model_builder.h"

namespace bough {
namespace {

using test::fields_of;
using test::i64;
using test::packed;

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins,
                           const test::Attrs& attrs, int64_t opset) {
  return test::run_node(op, ins, 1, attrs, opset, "sub_byte_moves");
}

TEST(SubByteMoves, TransposeInt4) {
  // [[0 1 2] [3 4 5] [6 7 -8]] transposed; -8 is the field 8. Nine fields leave half a byte
  // of padding, which stays zero.
  Tensor x = packed(ElemType::Int4, {3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  Tensor y = run_op("Transpose", {{"x", x}}, {}, 21)[0];
  ASSERT_EQ(y.type(), ElemType::Int4);
  EXPECT_EQ(y.shape(), Dims({3, 3}));
  EXPECT_EQ(fields_of(y), (std::vector<int>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  ASSERT_EQ(y.nbytes(), 5u);
  EXPECT_EQ(y.data<uint8_t>()[4] >> 4, 0);
}

TEST(SubByteMoves, TransposeUInt4ThreeAxes) {
  // x[i][j][k] = 4i + 2j + k, perm (2, 0, 1): y[k][i][j] = x[i][j][k].
  Tensor x = packed(ElemType::UInt4, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  Tensor y = run_op(
      "Transpose", {{"x", x}},
      [](onnxpb::NodeProto& n) {
        test::set_ints(n, "perm", {2, 0, 1});
      },
      21)[0];
  EXPECT_EQ(y.shape(), Dims({2, 2, 2}));
  EXPECT_EQ(fields_of(y), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(SubByteMoves, PadUInt4WithAConstant) {
  Tensor x = packed(ElemType::UInt4, {2}, {3, 15});
  Tensor y = run_op(
      "Pad", {{"x", x}, {"pads", i64({2}, {1, 2})}, {"value", packed(ElemType::UInt4, {}, {7})}},
      {}, 21)[0];
  ASSERT_EQ(y.type(), ElemType::UInt4);
  EXPECT_EQ(fields_of(y), (std::vector<int>{7, 3, 15, 7, 7}));
}

TEST(SubByteMoves, PadInt4DefaultsToZeroAndEdgeRepeats) {
  // int4 fields: -8 is 8, -1 is 15.
  Tensor x = packed(ElemType::Int4, {3}, {8, 1, 15});
  Tensor zero = run_op("Pad", {{"x", x}, {"pads", i64({2}, {1, 1})}}, {}, 21)[0];
  EXPECT_EQ(fields_of(zero), (std::vector<int>{0, 8, 1, 15, 0}));
  Tensor edge = run_op(
      "Pad", {{"x", x}, {"pads", i64({2}, {2, 1})}},
      [](onnxpb::NodeProto& n) { test::set_string(n, "mode", "edge"); }, 21)[0];
  EXPECT_EQ(fields_of(edge), (std::vector<int>{8, 8, 8, 1, 15, 15}));
}

TEST(SubByteMoves, PadRefusesAConstantOfAnotherType) {
  test::expect_invalid_model([] {
    run_op("Pad",
           {{"x", packed(ElemType::UInt4, {2}, {1, 2})},
            {"pads", i64({2}, {1, 0})},
            {"value", packed(ElemType::Int4, {}, {1})}},
           {}, 21);
  });
}

TEST(SubByteMoves, TensorScatterFloat4e2m1) {
  // past [1, 4, 1], update [1, 2, 1] written at position 1 of axis 1.
  Tensor past = packed(ElemType::Float4E2M1, {1, 4, 1}, {1, 2, 3, 4});
  Tensor update = packed(ElemType::Float4E2M1, {1, 2, 1}, {9, 10});
  Tensor y =
      run_op("TensorScatter",
             {{"past", past}, {"update", update}, {"write_indices", i64({1}, {1})}}, {}, 24)[0];
  ASSERT_EQ(y.type(), ElemType::Float4E2M1);
  EXPECT_EQ(fields_of(y), (std::vector<int>{1, 9, 10, 4}));
}

}  // namespace
}  // namespace bough
