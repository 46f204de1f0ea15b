// Type and shape inference of the neural-network operators (convolutions, pools,
// normalizations, recurrences, matrix products, attention, losses, signal processing): each
// case builds a one-node model, infers it without help from its declarations and compares
// the output types with ones worked out by hand; the invalid cases are refused by
// infer::validate with a message at the node.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "infer/infer_util.h"
#include "model_builder.h"

namespace bough {
namespace {

using test::Dims64;
using test::expect_refused;
using test::GraphBuilder;
using test::i64;
using test::infer_model;
using test::Inferred;
using test::one_node;
using test::symbolic_input;

constexpr ElemType F = ElemType::Float;

TEST(GroupCInfer, ConvKeepsTheBatchSymbolAndSizesTheWindow) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "3", "32", "32"});
  g.initializer("w", Tensor::zeros(F, Dims{8, 3, 3, 3}));
  auto& n = one_node(g, "Conv", {"x", "w"}, {"y"});
  test::set_ints(n, "pads", {1, 1, 1, 1});
  test::set_ints(n, "strides", {2, 2});
  const Inferred r = infer_model(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,8,16,16]") << r.errors();
}

TEST(GroupCInfer, ConvIntegerGivesInt32) {
  GraphBuilder g("main");
  symbolic_input(g, "x", ElemType::UInt8, {"1", "2", "5", "H"});
  symbolic_input(g, "w", ElemType::UInt8, {"4", "2", "3", "1"});
  one_node(g, "ConvInteger", {"x", "w"}, {"y"});
  const Inferred r = infer_model(g, 17);
  // A 1-wide kernel with stride 1 and no padding keeps the symbol.
  EXPECT_EQ(r.type(0), "tensor(int32)[1,4,3,H]") << r.errors();
}

TEST(GroupCInfer, ConvChannelsThatDoNotMatchTheWeightsAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "3", "5", "5"});
  symbolic_input(g, "w", F, {"4", "2", "3", "3"});
  one_node(g, "Conv", {"x", "w"}, {"y"});
  expect_refused(g, 17, "input channels / group and the weights' dim 1 differ");
}

TEST(GroupCInfer, MaxPoolCeilModeAndIndices) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "C", "5", "5"});
  auto& n = one_node(g, "MaxPool", {"x"}, {"y", "i"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "strides", {2, 2});
  test::set_int(n, "ceil_mode", 1);
  const Inferred r = infer_model(g, 12);
  EXPECT_EQ(r.type(0), "tensor(float)[N,C,3,3]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(int64)[N,C,3,3]");
}

TEST(GroupCInfer, AveragePoolSameUpperHalvesKnownDims) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "1", "7", "S"});
  auto& n = one_node(g, "AveragePool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {3, 3});
  test::set_ints(n, "strides", {2, 2});
  test::set_string(n, "auto_pad", "SAME_UPPER");
  const Inferred r = infer_model(g, 19);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,4,?]") << r.errors();
}

TEST(GroupCInfer, PoolWindowLargerThanTheInputIsInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "1", "2", "2"});
  auto& n = one_node(g, "LpPool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {3, 3});
  expect_refused(g, 18, "is larger than the padded input");
}

TEST(GroupCInfer, PoolPadsOfTheWrongLengthAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "1", "4", "4"});
  auto& n = one_node(g, "MaxPool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "pads", {1, 1});
  expect_refused(g, 12, "pads has 2 values, expected 4");
}

TEST(GroupCInfer, GlobalPoolKeepsBatchAndChannels) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "C", "H", "W"});
  one_node(g, "GlobalAveragePool", {"x"}, {"y"});
  const Inferred r = infer_model(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,C,1,1]") << r.errors();
}

TEST(GroupCInfer, ConvTransposeNaturalSizeAndOutputShape) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "2", "3", "3"});
  g.initializer("w", Tensor::zeros(F, Dims{2, 3, 3, 3}));
  auto& n = one_node(g, "ConvTranspose", {"x", "w"}, {"y"});
  test::set_ints(n, "strides", {2, 2});
  Inferred r = infer_model(g, 17);
  // 2 * (3 - 1) + 3 = 7
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,7,7]") << r.errors();

  GraphBuilder h("main");
  symbolic_input(h, "x", F, {"N", "2", "3", "3"});
  h.initializer("w", Tensor::zeros(F, Dims{2, 3, 3, 3}));
  auto& m = one_node(h, "ConvTranspose", {"x", "w"}, {"y"});
  test::set_ints(m, "strides", {3, 3});
  test::set_ints(m, "output_shape", {10, 8});
  r = infer_model(h, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,10,8]") << r.errors();
}

TEST(GroupCInfer, MaxUnpoolTakesAKnownOutputShape) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "1", "2", "2"});
  symbolic_input(g, "i", ElemType::Int64, {"1", "1", "2", "2"});
  g.initializer("s", i64({4}, {1, 1, 5, 5}));
  auto& n = one_node(g, "MaxUnpool", {"x", "i", "s"}, {"y"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "strides", {2, 2});
  const Inferred r = infer_model(g, 11);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,5,5]") << r.errors();
}

TEST(GroupCInfer, GemmTransposesA) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"4", "M"});
  symbolic_input(g, "b", F, {"4", "5"});
  auto& n = one_node(g, "Gemm", {"a", "b"}, {"y"});
  test::set_int(n, "transA", 1);
  const Inferred r = infer_model(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[M,5]") << r.errors();
}

TEST(GroupCInfer, GemmInnerDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"3", "4"});
  symbolic_input(g, "b", F, {"5", "6"});
  one_node(g, "Gemm", {"a", "b"}, {"y"});
  expect_refused(g, 13, "the inner dims of A and B differ: 4 and 5");
}

TEST(GroupCInfer, MatMulBroadcastsBatchesAndDropsVectorDims) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"B", "1", "3", "4"});
  symbolic_input(g, "b", F, {"5", "4", "2"});
  symbolic_input(g, "v", F, {"4"});
  one_node(g, "MatMul", {"a", "b"}, {"y"});
  one_node(g, "MatMul", {"v", "b"}, {"z"}).set_name("m2");
  const Inferred r = infer_model(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[B,5,3,2]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[5,2]");
}

TEST(GroupCInfer, MatMulContractedDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"2", "3"});
  symbolic_input(g, "b", F, {"4", "5"});
  one_node(g, "MatMul", {"a", "b"}, {"y"});
  expect_refused(g, 13, "the contracted dims differ: 3 and 4");
}

TEST(GroupCInfer, LstmHiddenFromTheWeights) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"S", "B", "8"});
  symbolic_input(g, "w", F, {"1", "16", "8"});
  symbolic_input(g, "r", F, {"1", "16", "4"});
  one_node(g, "LSTM", {"x", "w", "r"}, {"y", "h", "c"});
  const Inferred r = infer_model(g, 14);
  EXPECT_EQ(r.type(0), "tensor(float)[S,1,B,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[1,B,4]");
  EXPECT_EQ(r.type(2), "tensor(float)[1,B,4]");
}

TEST(GroupCInfer, GruBatchFirstBidirectional) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"B", "S", "8"});
  symbolic_input(g, "w", F, {"2", "15", "8"});
  symbolic_input(g, "r", F, {"2", "15", "5"});
  auto& n = one_node(g, "GRU", {"x", "w", "r"}, {"y", "h"});
  test::set_int(n, "layout", 1);
  test::set_int(n, "hidden_size", 5);
  test::set_string(n, "direction", "bidirectional");
  const Inferred r = infer_model(g, 14);
  EXPECT_EQ(r.type(0), "tensor(float)[B,S,2,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,5]");
}

TEST(GroupCInfer, RecurrentUnknownDirectionIsInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"S", "B", "8"});
  symbolic_input(g, "w", F, {"1", "4", "8"});
  symbolic_input(g, "r", F, {"1", "4", "4"});
  auto& n = one_node(g, "RNN", {"x", "w", "r"}, {"y"});
  test::set_string(n, "direction", "sideways");
  expect_refused(g, 14,
                 "direction must be 'forward', 'reverse' or 'bidirectional', got 'sideways'");
}

TEST(GroupCInfer, LayerNormalizationStatisticsKeepTheDimsBeforeAxis) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "3", "4"});
  symbolic_input(g, "s", F, {"3", "4"});
  auto& n = one_node(g, "LayerNormalization", {"x", "s"}, {"y", "mean", "inv"});
  test::set_int(n, "axis", 1);
  const Inferred r = infer_model(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[N,1,1]");
  EXPECT_EQ(r.type(2), "tensor(float)[N,1,1]");
}

TEST(GroupCInfer, LayerNormalizationAxisOutOfRangeIsInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "3", "4"});
  symbolic_input(g, "s", F, {"4"});
  auto& n = one_node(g, "LayerNormalization", {"x", "s"}, {"y", "mean"});
  test::set_int(n, "axis", 3);
  expect_refused(g, 17, "axis 3 is out of range for rank 3");
}

TEST(GroupCInfer, DropoutMaskIsBool) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "7"});
  one_node(g, "Dropout", {"x"}, {"y", "m"});
  const Inferred r = infer_model(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[N,7]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(bool)[N,7]");
}

TEST(GroupCInfer, EinsumExplicitAndImplicitOutputs) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"B", "2", "3"});
  symbolic_input(g, "b", F, {"B", "3", "4"});
  auto& n = one_node(g, "Einsum", {"a", "b"}, {"y"});
  test::set_string(n, "equation", "bij,bjk->bik");
  symbolic_input(g, "p", F, {"2", "3"});
  symbolic_input(g, "q", F, {"3", "4"});
  auto& m = g.node("Einsum", {"q", "p"}, {"z"}, "m");
  g.output_untyped("z");
  // Implicit output: the labels used once, alphabetically (i, k), whatever the input order.
  test::set_string(m, "equation", "jk,ij");
  const Inferred r = infer_model(g, 12);
  EXPECT_EQ(r.type(0), "tensor(float)[B,2,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[2,4]");
}

TEST(GroupCInfer, EinsumLabelDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"2", "3"});
  symbolic_input(g, "b", F, {"4", "5"});
  auto& n = one_node(g, "Einsum", {"a", "b"}, {"y"});
  test::set_string(n, "equation", "ij,jk->ik");
  expect_refused(g, 12, "the dims of one Einsum label differ: 3 and 4");
}

TEST(GroupCInfer, DftKnownAxisAndLengthOnesided) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "10", "1"});
  g.initializer("len", i64({}, {8}));
  g.initializer("axis", i64({}, {1}));
  auto& n = one_node(g, "DFT", {"x", "len", "axis"}, {"y"});
  test::set_int(n, "onesided", 1);
  const Inferred r = infer_model(g, 20);
  // 8 / 2 + 1 bins along axis 1.
  EXPECT_EQ(r.type(0), "tensor(float)[N,5,2]") << r.errors();
}

TEST(GroupCInfer, DftUnknownAxisKeepsTheDimsAFullTransformKeeps) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "10", "10", "1"});
  symbolic_input(g, "axis", ElemType::Int64, {});
  one_node(g, "DFT", {"x", "", "axis"}, {"y"});
  const Inferred r = infer_model(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[1,10,10,2]") << r.errors();
}

TEST(GroupCInfer, DftAxisOutOfRangeIsInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"4", "2"});
  auto& n = one_node(g, "DFT", {"x"}, {"y"});
  test::set_int(n, "axis", 1);
  expect_refused(g, 17, "axis 1 is out of range for rank 2");
}

TEST(GroupCInfer, StftFramesAndBins) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "128", "1"});
  g.initializer("step", i64({}, {8}));
  g.initializer("len", i64({}, {16}));
  one_node(g, "STFT", {"x", "step", "", "len"}, {"y"});
  const Inferred r = infer_model(g, 17);
  // 1 + (128 - 16) / 8 = 15 frames, 16 / 2 + 1 = 9 bins.
  EXPECT_EQ(r.type(0), "tensor(float)[1,15,9,2]") << r.errors();
}

TEST(GroupCInfer, AttentionPackedHeads) {
  GraphBuilder g("main");
  symbolic_input(g, "q", F, {"B", "4", "16"});
  symbolic_input(g, "k", F, {"B", "6", "16"});
  symbolic_input(g, "v", F, {"B", "6", "8"});
  auto& n = one_node(g, "Attention", {"q", "k", "v"}, {"y", "pk", "pv"});
  test::set_int(n, "q_num_heads", 2);
  test::set_int(n, "kv_num_heads", 2);
  const Inferred r = infer_model(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[B,4,8]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,6,8]");
  EXPECT_EQ(r.type(2), "tensor(float)[B,2,6,4]");
}

TEST(GroupCInfer, AttentionWithPastAddsTheLengths) {
  GraphBuilder g("main");
  symbolic_input(g, "q", F, {"2", "3", "4", "8"});
  symbolic_input(g, "k", F, {"2", "3", "6", "8"});
  symbolic_input(g, "v", F, {"2", "3", "6", "5"});
  symbolic_input(g, "pk", F, {"2", "3", "10", "8"});
  symbolic_input(g, "pv", F, {"2", "3", "10", "5"});
  one_node(g, "Attention", {"q", "k", "v", "", "pk", "pv"}, {"y", "ok", "ov", "qk"});
  const Inferred r = infer_model(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[2,3,4,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[2,3,16,8]");
  EXPECT_EQ(r.type(2), "tensor(float)[2,3,16,5]");
  EXPECT_EQ(r.type(3), "tensor(float)[2,3,4,16]");
}

TEST(GroupCInfer, AttentionPackedInputsNeedHeads) {
  GraphBuilder g("main");
  symbolic_input(g, "q", F, {"1", "4", "16"});
  symbolic_input(g, "k", F, {"1", "6", "16"});
  symbolic_input(g, "v", F, {"1", "6", "8"});
  one_node(g, "Attention", {"q", "k", "v"}, {"y"});
  expect_refused(g, 23, "3-D inputs need q_num_heads and kv_num_heads");
}

TEST(GroupCInfer, NegativeLogLikelihoodLossReductions) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "3", "5"});
  symbolic_input(g, "t", ElemType::Int64, {"N", "5"});
  auto& n = one_node(g, "NegativeLogLikelihoodLoss", {"x", "t"}, {"none"});
  test::set_string(n, "reduction", "none");
  g.node("NegativeLogLikelihoodLoss", {"x", "t"}, {"mean"}, "m");
  g.output_untyped("mean");
  const Inferred r = infer_model(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[N,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[]");
}

TEST(GroupCInfer, LossTargetsThatDoNotFollowTheScoresAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"2", "3", "5"});
  symbolic_input(g, "t", ElemType::Int64, {"2", "4"});
  one_node(g, "SoftmaxCrossEntropyLoss", {"x", "t"}, {"y"});
  expect_refused(g, 13, "the targets' dim 1 (4) does not match the scores' (5)");
}

TEST(GroupCInfer, RoiAlignOutputSize) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "C", "10", "10"});
  symbolic_input(g, "rois", F, {"R", "4"});
  symbolic_input(g, "idx", ElemType::Int64, {"R"});
  auto& n = one_node(g, "RoiAlign", {"x", "rois", "idx"}, {"y"});
  test::set_int(n, "output_height", 3);
  test::set_int(n, "output_width", 2);
  const Inferred r = infer_model(g, 16);
  EXPECT_EQ(r.type(0), "tensor(float)[R,C,3,2]") << r.errors();
}

TEST(GroupCInfer, GridSampleTakesTheGridsDims) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "3", "8", "8"});
  symbolic_input(g, "grid", F, {"N", "5", "6", "2"});
  one_node(g, "GridSample", {"x", "grid"}, {"y"});
  const Inferred r = infer_model(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,5,6]") << r.errors();
}

TEST(GroupCInfer, GridSampleGridOfTheWrongWidthIsInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"1", "3", "8", "8"});
  symbolic_input(g, "grid", F, {"1", "5", "6", "3"});
  one_node(g, "GridSample", {"x", "grid"}, {"y"});
  expect_refused(g, 20, "grid's last dim must be 2, not 3");
}

TEST(GroupCInfer, AffineGridFromAKnownSize) {
  GraphBuilder g("main");
  symbolic_input(g, "theta", F, {"2", "2", "3"});
  g.initializer("size", i64({4}, {2, 3, 5, 6}));
  one_node(g, "AffineGrid", {"theta", "size"}, {"y"});
  const Inferred r = infer_model(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[2,5,6,2]") << r.errors();
}

TEST(GroupCInfer, NonMaxSuppressionCountIsUnknown) {
  GraphBuilder g("main");
  symbolic_input(g, "boxes", F, {"1", "6", "4"});
  symbolic_input(g, "scores", F, {"1", "1", "6"});
  one_node(g, "NonMaxSuppression", {"boxes", "scores"}, {"y"});
  const Inferred r = infer_model(g, 11);
  EXPECT_EQ(r.type(0), "tensor(int64)[?,3]") << r.errors();
}

TEST(GroupCInfer, CausalConvWithStateCarriesKMinusOne) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"B", "4", "T"});
  symbolic_input(g, "w", F, {"4", "1", "3"});
  one_node(g, "CausalConvWithState", {"x", "w"}, {"y", "state"});
  const Inferred r = infer_model(g, 27);
  EXPECT_EQ(r.type(0), "tensor(float)[B,4,T]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,4,2]");
}

TEST(GroupCInfer, LinearAttentionUnpacksHeads) {
  GraphBuilder g("main");
  symbolic_input(g, "q", F, {"B", "T", "16"});
  symbolic_input(g, "k", F, {"B", "T", "8"});
  symbolic_input(g, "v", F, {"B", "T", "12"});
  auto& n = one_node(g, "LinearAttention", {"q", "k", "v"}, {"y", "state"});
  test::set_int(n, "q_num_heads", 4);
  test::set_int(n, "kv_num_heads", 2);
  test::set_string(n, "update_rule", "linear");
  const Inferred r = infer_model(g, 27);
  // d_k = 8 / 2, d_v = 12 / 2; Y packs 4 query heads of d_v.
  EXPECT_EQ(r.type(0), "tensor(float)[B,T,24]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,4,6]");
}

TEST(GroupCInfer, SwiGluInputsOfDifferentShapesAreInvalid) {
  GraphBuilder g("main");
  symbolic_input(g, "a", F, {"2", "3"});
  symbolic_input(g, "b", F, {"2", "4"});
  one_node(g, "SwiGLU", {"a", "b"}, {"y"});
  expect_refused(g, 28, "the dims of A and B differ: 3 and 4");
}

TEST(GroupCInfer, RmsNormalizationAndQLinearMatMul) {
  GraphBuilder g("main");
  symbolic_input(g, "x", F, {"N", "6"});
  symbolic_input(g, "s", F, {"6"});
  one_node(g, "RMSNormalization", {"x", "s"}, {"y"});
  symbolic_input(g, "a", ElemType::UInt8, {"N", "4"});
  symbolic_input(g, "b", ElemType::UInt8, {"4", "3"});
  symbolic_input(g, "sc", F, {});
  symbolic_input(g, "za", ElemType::UInt8, {});
  symbolic_input(g, "zy", ElemType::Int8, {});
  g.node("QLinearMatMul", {"a", "sc", "za", "b", "sc", "za", "sc", "zy"}, {"q"}, "m");
  g.output_untyped("q");
  const Inferred r = infer_model(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[N,6]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(int8)[N,3]");
}

}  // namespace
}  // namespace bough
