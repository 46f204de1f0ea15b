// Type and shape inference of the neural-network operators (convolutions, pools,
// normalizations, recurrences, matrix products, attention, losses, signal processing): each
// case builds a one-node model, infers it without help from its declarations and compares
// the output types with ones worked out by hand; the invalid cases are refused by
// infer::validate with a message at the node.
#include <gtest/gtest.h>

#include <cctype>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Dims64;
using test::GraphBuilder;
using test::i64;

struct Inferred {
  std::unique_ptr<ir::Model> model;
  infer::Validation v;

  std::string type(size_t k) const {
    return ir::to_string(v.types.type_of(model->graph->outputs.at(k)));
  }
  std::string errors() const {
    std::string all;
    for (const auto& d : v.diagnostics.all())
      if (d.severity == check::Severity::Error) all += d.place + ": " + d.message + "\n";
    return all;
  }
};

Inferred infer_graph(const GraphBuilder& g, int64_t opset) {
  const std::string path = test::save_model(test::make_model(g, opset, opset >= 21 ? 10 : 8),
                                            test::scratch_dir("group_c_infer"), "m.onnx");
  Inferred r;
  r.model = onnx::read_model_file(path);
  infer::ValidateOptions options;
  options.infer.refine_with_declarations = false;
  r.v = infer::validate(*r.model, options);
  return r;
}

// An input whose dims are written as text: a number is a known dim, a name a symbol.
void input(GraphBuilder& g, const std::string& name, ElemType t,
           const std::vector<std::string>& dims) {
  g.input(name, t, Dims64(dims.size(), 1));
  auto* shape = g.mutable_proto()
                    .mutable_input(g.proto().input_size() - 1)
                    ->mutable_type()
                    ->mutable_tensor_type()
                    ->mutable_shape();
  for (size_t k = 0; k < dims.size(); ++k) {
    auto* d = shape->mutable_dim(static_cast<int>(k));
    d->Clear();
    if (!dims[k].empty() && std::isdigit(static_cast<unsigned char>(dims[k][0])))
      d->set_dim_value(std::stoll(dims[k]));
    else
      d->set_dim_param(dims[k]);
  }
}

// One node of `op` named "n" from `ins` to `outs` (declared without types).
onnxpb::NodeProto& node(GraphBuilder& g, const std::string& op, std::vector<std::string> ins,
                        const std::vector<std::string>& outs) {
  onnxpb::NodeProto& n = g.node(op, std::move(ins), outs, "n");
  for (const std::string& o : outs) g.output_untyped(o);
  return n;
}

// The model is refused with an error at node "n" whose message contains `text`.
void expect_refused(const GraphBuilder& g, int64_t opset, const std::string& text) {
  const Inferred r = infer_graph(g, opset);
  bool found = false;
  for (const auto& d : r.v.diagnostics.all())
    if (d.severity == check::Severity::Error && d.place.find("\"n\"") != std::string::npos &&
        d.message.find(text) != std::string::npos)
      found = true;
  EXPECT_TRUE(found) << "no error at node n containing '" << text << "' among:\n" << r.errors();
}

constexpr ElemType F = ElemType::Float;

TEST(GroupCInfer, ConvKeepsTheBatchSymbolAndSizesTheWindow) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "3", "32", "32"});
  g.initializer("w", Tensor::zeros(F, Dims{8, 3, 3, 3}));
  auto& n = node(g, "Conv", {"x", "w"}, {"y"});
  test::set_ints(n, "pads", {1, 1, 1, 1});
  test::set_ints(n, "strides", {2, 2});
  const Inferred r = infer_graph(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,8,16,16]") << r.errors();
}

TEST(GroupCInfer, ConvIntegerGivesInt32) {
  GraphBuilder g("main");
  input(g, "x", ElemType::UInt8, {"1", "2", "5", "H"});
  input(g, "w", ElemType::UInt8, {"4", "2", "3", "1"});
  node(g, "ConvInteger", {"x", "w"}, {"y"});
  const Inferred r = infer_graph(g, 17);
  // A 1-wide kernel with stride 1 and no padding keeps the symbol.
  EXPECT_EQ(r.type(0), "tensor(int32)[1,4,3,H]") << r.errors();
}

TEST(GroupCInfer, ConvChannelsThatDoNotMatchTheWeightsAreInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "3", "5", "5"});
  input(g, "w", F, {"4", "2", "3", "3"});
  node(g, "Conv", {"x", "w"}, {"y"});
  expect_refused(g, 17, "input channels / group and the weights' dim 1 differ");
}

TEST(GroupCInfer, MaxPoolCeilModeAndIndices) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "C", "5", "5"});
  auto& n = node(g, "MaxPool", {"x"}, {"y", "i"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "strides", {2, 2});
  test::set_int(n, "ceil_mode", 1);
  const Inferred r = infer_graph(g, 12);
  EXPECT_EQ(r.type(0), "tensor(float)[N,C,3,3]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(int64)[N,C,3,3]");
}

TEST(GroupCInfer, AveragePoolSameUpperHalvesKnownDims) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "1", "7", "S"});
  auto& n = node(g, "AveragePool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {3, 3});
  test::set_ints(n, "strides", {2, 2});
  test::set_string(n, "auto_pad", "SAME_UPPER");
  const Inferred r = infer_graph(g, 19);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,4,?]") << r.errors();
}

TEST(GroupCInfer, PoolWindowLargerThanTheInputIsInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "1", "2", "2"});
  auto& n = node(g, "LpPool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {3, 3});
  expect_refused(g, 18, "is larger than the padded input");
}

TEST(GroupCInfer, PoolPadsOfTheWrongLengthAreInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "1", "4", "4"});
  auto& n = node(g, "MaxPool", {"x"}, {"y"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "pads", {1, 1});
  expect_refused(g, 12, "pads has 2 values, expected 4");
}

TEST(GroupCInfer, GlobalPoolKeepsBatchAndChannels) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "C", "H", "W"});
  node(g, "GlobalAveragePool", {"x"}, {"y"});
  const Inferred r = infer_graph(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,C,1,1]") << r.errors();
}

TEST(GroupCInfer, ConvTransposeNaturalSizeAndOutputShape) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "2", "3", "3"});
  g.initializer("w", Tensor::zeros(F, Dims{2, 3, 3, 3}));
  auto& n = node(g, "ConvTranspose", {"x", "w"}, {"y"});
  test::set_ints(n, "strides", {2, 2});
  Inferred r = infer_graph(g, 17);
  // 2 * (3 - 1) + 3 = 7
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,7,7]") << r.errors();

  GraphBuilder h("main");
  input(h, "x", F, {"N", "2", "3", "3"});
  h.initializer("w", Tensor::zeros(F, Dims{2, 3, 3, 3}));
  auto& m = node(h, "ConvTranspose", {"x", "w"}, {"y"});
  test::set_ints(m, "strides", {3, 3});
  test::set_ints(m, "output_shape", {10, 8});
  r = infer_graph(h, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,10,8]") << r.errors();
}

TEST(GroupCInfer, MaxUnpoolTakesAKnownOutputShape) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "1", "2", "2"});
  input(g, "i", ElemType::Int64, {"1", "1", "2", "2"});
  g.initializer("s", i64({4}, {1, 1, 5, 5}));
  auto& n = node(g, "MaxUnpool", {"x", "i", "s"}, {"y"});
  test::set_ints(n, "kernel_shape", {2, 2});
  test::set_ints(n, "strides", {2, 2});
  const Inferred r = infer_graph(g, 11);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,5,5]") << r.errors();
}

TEST(GroupCInfer, GemmTransposesA) {
  GraphBuilder g("main");
  input(g, "a", F, {"4", "M"});
  input(g, "b", F, {"4", "5"});
  auto& n = node(g, "Gemm", {"a", "b"}, {"y"});
  test::set_int(n, "transA", 1);
  const Inferred r = infer_graph(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[M,5]") << r.errors();
}

TEST(GroupCInfer, GemmInnerDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  input(g, "a", F, {"3", "4"});
  input(g, "b", F, {"5", "6"});
  node(g, "Gemm", {"a", "b"}, {"y"});
  expect_refused(g, 13, "the inner dims of A and B differ: 4 and 5");
}

TEST(GroupCInfer, MatMulBroadcastsBatchesAndDropsVectorDims) {
  GraphBuilder g("main");
  input(g, "a", F, {"B", "1", "3", "4"});
  input(g, "b", F, {"5", "4", "2"});
  input(g, "v", F, {"4"});
  node(g, "MatMul", {"a", "b"}, {"y"});
  node(g, "MatMul", {"v", "b"}, {"z"}).set_name("m2");
  const Inferred r = infer_graph(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[B,5,3,2]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[5,2]");
}

TEST(GroupCInfer, MatMulContractedDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  input(g, "a", F, {"2", "3"});
  input(g, "b", F, {"4", "5"});
  node(g, "MatMul", {"a", "b"}, {"y"});
  expect_refused(g, 13, "the contracted dims differ: 3 and 4");
}

TEST(GroupCInfer, LstmHiddenFromTheWeights) {
  GraphBuilder g("main");
  input(g, "x", F, {"S", "B", "8"});
  input(g, "w", F, {"1", "16", "8"});
  input(g, "r", F, {"1", "16", "4"});
  node(g, "LSTM", {"x", "w", "r"}, {"y", "h", "c"});
  const Inferred r = infer_graph(g, 14);
  EXPECT_EQ(r.type(0), "tensor(float)[S,1,B,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[1,B,4]");
  EXPECT_EQ(r.type(2), "tensor(float)[1,B,4]");
}

TEST(GroupCInfer, GruBatchFirstBidirectional) {
  GraphBuilder g("main");
  input(g, "x", F, {"B", "S", "8"});
  input(g, "w", F, {"2", "15", "8"});
  input(g, "r", F, {"2", "15", "5"});
  auto& n = node(g, "GRU", {"x", "w", "r"}, {"y", "h"});
  test::set_int(n, "layout", 1);
  test::set_int(n, "hidden_size", 5);
  test::set_string(n, "direction", "bidirectional");
  const Inferred r = infer_graph(g, 14);
  EXPECT_EQ(r.type(0), "tensor(float)[B,S,2,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,5]");
}

TEST(GroupCInfer, RecurrentUnknownDirectionIsInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"S", "B", "8"});
  input(g, "w", F, {"1", "4", "8"});
  input(g, "r", F, {"1", "4", "4"});
  auto& n = node(g, "RNN", {"x", "w", "r"}, {"y"});
  test::set_string(n, "direction", "sideways");
  expect_refused(g, 14,
                 "direction must be 'forward', 'reverse' or 'bidirectional', got 'sideways'");
}

TEST(GroupCInfer, LayerNormalizationStatisticsKeepTheDimsBeforeAxis) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "3", "4"});
  input(g, "s", F, {"3", "4"});
  auto& n = node(g, "LayerNormalization", {"x", "s"}, {"y", "mean", "inv"});
  test::set_int(n, "axis", 1);
  const Inferred r = infer_graph(g, 17);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[N,1,1]");
  EXPECT_EQ(r.type(2), "tensor(float)[N,1,1]");
}

TEST(GroupCInfer, LayerNormalizationAxisOutOfRangeIsInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "3", "4"});
  input(g, "s", F, {"4"});
  auto& n = node(g, "LayerNormalization", {"x", "s"}, {"y", "mean"});
  test::set_int(n, "axis", 3);
  expect_refused(g, 17, "axis 3 is out of range for rank 3");
}

TEST(GroupCInfer, DropoutMaskIsBool) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "7"});
  node(g, "Dropout", {"x"}, {"y", "m"});
  const Inferred r = infer_graph(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[N,7]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(bool)[N,7]");
}

TEST(GroupCInfer, EinsumExplicitAndImplicitOutputs) {
  GraphBuilder g("main");
  input(g, "a", F, {"B", "2", "3"});
  input(g, "b", F, {"B", "3", "4"});
  auto& n = node(g, "Einsum", {"a", "b"}, {"y"});
  test::set_string(n, "equation", "bij,bjk->bik");
  input(g, "p", F, {"2", "3"});
  input(g, "q", F, {"3", "4"});
  auto& m = g.node("Einsum", {"q", "p"}, {"z"}, "m");
  g.output_untyped("z");
  // Implicit output: the labels used once, alphabetically (i, k), whatever the input order.
  test::set_string(m, "equation", "jk,ij");
  const Inferred r = infer_graph(g, 12);
  EXPECT_EQ(r.type(0), "tensor(float)[B,2,4]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[2,4]");
}

TEST(GroupCInfer, EinsumLabelDimsThatDifferAreInvalid) {
  GraphBuilder g("main");
  input(g, "a", F, {"2", "3"});
  input(g, "b", F, {"4", "5"});
  auto& n = node(g, "Einsum", {"a", "b"}, {"y"});
  test::set_string(n, "equation", "ij,jk->ik");
  expect_refused(g, 12, "the dims of one Einsum label differ: 3 and 4");
}

TEST(GroupCInfer, DftKnownAxisAndLengthOnesided) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "10", "1"});
  g.initializer("len", i64({}, {8}));
  g.initializer("axis", i64({}, {1}));
  auto& n = node(g, "DFT", {"x", "len", "axis"}, {"y"});
  test::set_int(n, "onesided", 1);
  const Inferred r = infer_graph(g, 20);
  // 8 / 2 + 1 bins along axis 1.
  EXPECT_EQ(r.type(0), "tensor(float)[N,5,2]") << r.errors();
}

TEST(GroupCInfer, DftUnknownAxisKeepsTheDimsAFullTransformKeeps) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "10", "10", "1"});
  input(g, "axis", ElemType::Int64, {});
  node(g, "DFT", {"x", "", "axis"}, {"y"});
  const Inferred r = infer_graph(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[1,10,10,2]") << r.errors();
}

TEST(GroupCInfer, DftAxisOutOfRangeIsInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"4", "2"});
  auto& n = node(g, "DFT", {"x"}, {"y"});
  test::set_int(n, "axis", 1);
  expect_refused(g, 17, "axis 1 is out of range for rank 2");
}

TEST(GroupCInfer, StftFramesAndBins) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "128", "1"});
  g.initializer("step", i64({}, {8}));
  g.initializer("len", i64({}, {16}));
  node(g, "STFT", {"x", "step", "", "len"}, {"y"});
  const Inferred r = infer_graph(g, 17);
  // 1 + (128 - 16) / 8 = 15 frames, 16 / 2 + 1 = 9 bins.
  EXPECT_EQ(r.type(0), "tensor(float)[1,15,9,2]") << r.errors();
}

TEST(GroupCInfer, AttentionPackedHeads) {
  GraphBuilder g("main");
  input(g, "q", F, {"B", "4", "16"});
  input(g, "k", F, {"B", "6", "16"});
  input(g, "v", F, {"B", "6", "8"});
  auto& n = node(g, "Attention", {"q", "k", "v"}, {"y", "pk", "pv"});
  test::set_int(n, "q_num_heads", 2);
  test::set_int(n, "kv_num_heads", 2);
  const Inferred r = infer_graph(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[B,4,8]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,6,8]");
  EXPECT_EQ(r.type(2), "tensor(float)[B,2,6,4]");
}

TEST(GroupCInfer, AttentionWithPastAddsTheLengths) {
  GraphBuilder g("main");
  input(g, "q", F, {"2", "3", "4", "8"});
  input(g, "k", F, {"2", "3", "6", "8"});
  input(g, "v", F, {"2", "3", "6", "5"});
  input(g, "pk", F, {"2", "3", "10", "8"});
  input(g, "pv", F, {"2", "3", "10", "5"});
  node(g, "Attention", {"q", "k", "v", "", "pk", "pv"}, {"y", "ok", "ov", "qk"});
  const Inferred r = infer_graph(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[2,3,4,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[2,3,16,8]");
  EXPECT_EQ(r.type(2), "tensor(float)[2,3,16,5]");
  EXPECT_EQ(r.type(3), "tensor(float)[2,3,4,16]");
}

TEST(GroupCInfer, AttentionPackedInputsNeedHeads) {
  GraphBuilder g("main");
  input(g, "q", F, {"1", "4", "16"});
  input(g, "k", F, {"1", "6", "16"});
  input(g, "v", F, {"1", "6", "8"});
  node(g, "Attention", {"q", "k", "v"}, {"y"});
  expect_refused(g, 23, "3-D inputs need q_num_heads and kv_num_heads");
}

TEST(GroupCInfer, NegativeLogLikelihoodLossReductions) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "3", "5"});
  input(g, "t", ElemType::Int64, {"N", "5"});
  auto& n = node(g, "NegativeLogLikelihoodLoss", {"x", "t"}, {"none"});
  test::set_string(n, "reduction", "none");
  g.node("NegativeLogLikelihoodLoss", {"x", "t"}, {"mean"}, "m");
  g.output_untyped("mean");
  const Inferred r = infer_graph(g, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[N,5]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[]");
}

TEST(GroupCInfer, LossTargetsThatDoNotFollowTheScoresAreInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"2", "3", "5"});
  input(g, "t", ElemType::Int64, {"2", "4"});
  node(g, "SoftmaxCrossEntropyLoss", {"x", "t"}, {"y"});
  expect_refused(g, 13, "the targets' dim 1 (4) does not match the scores' (5)");
}

TEST(GroupCInfer, RoiAlignOutputSize) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "C", "10", "10"});
  input(g, "rois", F, {"R", "4"});
  input(g, "idx", ElemType::Int64, {"R"});
  auto& n = node(g, "RoiAlign", {"x", "rois", "idx"}, {"y"});
  test::set_int(n, "output_height", 3);
  test::set_int(n, "output_width", 2);
  const Inferred r = infer_graph(g, 16);
  EXPECT_EQ(r.type(0), "tensor(float)[R,C,3,2]") << r.errors();
}

TEST(GroupCInfer, GridSampleTakesTheGridsDims) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "3", "8", "8"});
  input(g, "grid", F, {"N", "5", "6", "2"});
  node(g, "GridSample", {"x", "grid"}, {"y"});
  const Inferred r = infer_graph(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[N,3,5,6]") << r.errors();
}

TEST(GroupCInfer, GridSampleGridOfTheWrongWidthIsInvalid) {
  GraphBuilder g("main");
  input(g, "x", F, {"1", "3", "8", "8"});
  input(g, "grid", F, {"1", "5", "6", "3"});
  node(g, "GridSample", {"x", "grid"}, {"y"});
  expect_refused(g, 20, "grid's last dim must be 2, not 3");
}

TEST(GroupCInfer, AffineGridFromAKnownSize) {
  GraphBuilder g("main");
  input(g, "theta", F, {"2", "2", "3"});
  g.initializer("size", i64({4}, {2, 3, 5, 6}));
  node(g, "AffineGrid", {"theta", "size"}, {"y"});
  const Inferred r = infer_graph(g, 20);
  EXPECT_EQ(r.type(0), "tensor(float)[2,5,6,2]") << r.errors();
}

TEST(GroupCInfer, NonMaxSuppressionCountIsUnknown) {
  GraphBuilder g("main");
  input(g, "boxes", F, {"1", "6", "4"});
  input(g, "scores", F, {"1", "1", "6"});
  node(g, "NonMaxSuppression", {"boxes", "scores"}, {"y"});
  const Inferred r = infer_graph(g, 11);
  EXPECT_EQ(r.type(0), "tensor(int64)[?,3]") << r.errors();
}

TEST(GroupCInfer, CausalConvWithStateCarriesKMinusOne) {
  GraphBuilder g("main");
  input(g, "x", F, {"B", "4", "T"});
  input(g, "w", F, {"4", "1", "3"});
  node(g, "CausalConvWithState", {"x", "w"}, {"y", "state"});
  const Inferred r = infer_graph(g, 27);
  EXPECT_EQ(r.type(0), "tensor(float)[B,4,T]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,4,2]");
}

TEST(GroupCInfer, LinearAttentionUnpacksHeads) {
  GraphBuilder g("main");
  input(g, "q", F, {"B", "T", "16"});
  input(g, "k", F, {"B", "T", "8"});
  input(g, "v", F, {"B", "T", "12"});
  auto& n = node(g, "LinearAttention", {"q", "k", "v"}, {"y", "state"});
  test::set_int(n, "q_num_heads", 4);
  test::set_int(n, "kv_num_heads", 2);
  test::set_string(n, "update_rule", "linear");
  const Inferred r = infer_graph(g, 27);
  // d_k = 8 / 2, d_v = 12 / 2; Y packs 4 query heads of d_v.
  EXPECT_EQ(r.type(0), "tensor(float)[B,T,24]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[B,2,4,6]");
}

TEST(GroupCInfer, SwiGluInputsOfDifferentShapesAreInvalid) {
  GraphBuilder g("main");
  input(g, "a", F, {"2", "3"});
  input(g, "b", F, {"2", "4"});
  node(g, "SwiGLU", {"a", "b"}, {"y"});
  expect_refused(g, 28, "the dims of A and B differ: 3 and 4");
}

TEST(GroupCInfer, RmsNormalizationAndQLinearMatMul) {
  GraphBuilder g("main");
  input(g, "x", F, {"N", "6"});
  input(g, "s", F, {"6"});
  node(g, "RMSNormalization", {"x", "s"}, {"y"});
  input(g, "a", ElemType::UInt8, {"N", "4"});
  input(g, "b", ElemType::UInt8, {"4", "3"});
  input(g, "sc", F, {});
  input(g, "za", ElemType::UInt8, {});
  input(g, "zy", ElemType::Int8, {});
  g.node("QLinearMatMul", {"a", "sc", "za", "b", "sc", "za", "sc", "zy"}, {"q"}, "m");
  g.output_untyped("q");
  const Inferred r = infer_graph(g, 23);
  EXPECT_EQ(r.type(0), "tensor(float)[N,6]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(int8)[N,3]");
}

// More refusals, one per inference check: the node's inputs and attributes, the opset, and
// the text the error must hold.
struct Refusal {
  const char* name;
  int64_t opset;
  std::function<void(GraphBuilder&)> build;
  const char* text;
};

void ints(onnxpb::NodeProto& n, const char* name, Dims64 v) { test::set_ints(n, name, v); }

const std::vector<Refusal>& refusals() {
  static const std::vector<Refusal> all = {
      {"conv group", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "3", "5", "5"});
         input(g, "w", F, {"4", "1", "3", "3"});
         test::set_int(node(g, "Conv", {"x", "w"}, {"y"}), "group", 2);
       },
       "input channels by group: 3 is not a multiple of 2"},
      {"conv weights rank", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "3", "5", "5"});
         input(g, "w", F, {"4", "3", "3"});
         node(g, "Conv", {"x", "w"}, {"y"});
       },
       "the weights have rank 3, the input 4"},
      {"conv kernel_shape", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "3", "5", "5"});
         input(g, "w", F, {"4", "3", "3", "3"});
         ints(node(g, "Conv", {"x", "w"}, {"y"}), "kernel_shape", {2, 2});
       },
       "kernel_shape and the weights' dims differ"},
      {"conv strides", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "3", "5", "5"});
         input(g, "w", F, {"4", "3", "3", "3"});
         ints(node(g, "Conv", {"x", "w"}, {"y"}), "strides", {0, 1});
       },
       "strides and dilations must be positive"},
      {"pool kernel rank", 12,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "1", "4", "4"});
         ints(node(g, "MaxPool", {"x"}, {"y"}), "kernel_shape", {2});
       },
       "the kernel has 1 spatial dims, the input 2"},
      {"global pool rank", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"4"});
         node(g, "GlobalMaxPool", {"x"}, {"y"});
       },
       "the input needs rank 2 or more"},
      {"conv transpose channels", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "2", "3", "3"});
         input(g, "w", F, {"3", "3", "3", "3"});
         node(g, "ConvTranspose", {"x", "w"}, {"y"});
       },
       "input channels and the weights' dim 0 differ: 2 and 3"},
      {"conv transpose output_padding", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "2", "3", "3"});
         input(g, "w", F, {"2", "3", "3", "3"});
         ints(node(g, "ConvTranspose", {"x", "w"}, {"y"}), "output_padding", {1});
       },
       "output_padding has 1 values, expected 2"},
      {"max unpool kernel", 11,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "1", "2", "2"});
         input(g, "i", ElemType::Int64, {"1", "1", "2", "2"});
         ints(node(g, "MaxUnpool", {"x", "i"}, {"y"}), "kernel_shape", {2});
       },
       "kernel_shape has 1 values, expected 2"},
      {"matmul scalar", 13,
       [](GraphBuilder& g) {
         input(g, "a", F, {});
         input(g, "b", F, {"2"});
         node(g, "MatMul", {"a", "b"}, {"y"});
       },
       "MatMul inputs cannot be scalars"},
      {"gemm rank", 13,
       [](GraphBuilder& g) {
         input(g, "a", F, {"2", "3", "4"});
         input(g, "b", F, {"4", "5"});
         node(g, "Gemm", {"a", "b"}, {"y"});
       },
       "A must be 2-D, not rank 3"},
      {"rnn directions", 14,
       [](GraphBuilder& g) {
         input(g, "x", F, {"S", "B", "8"});
         input(g, "w", F, {"2", "4", "8"});
         input(g, "r", F, {"2", "4", "4"});
         node(g, "RNN", {"x", "w", "r"}, {"y"});
       },
       "W has 2 directions, direction 'forward' needs 1"},
      {"gru hidden", 14,
       [](GraphBuilder& g) {
         input(g, "x", F, {"S", "B", "8"});
         input(g, "w", F, {"1", "10", "8"});
         input(g, "r", F, {"1", "10", "4"});
         node(g, "GRU", {"x", "w", "r"}, {"y"});
       },
       "W's dim 1 (10) is not a multiple of 3"},
      {"lstm x rank", 14,
       [](GraphBuilder& g) {
         input(g, "x", F, {"S", "8"});
         input(g, "w", F, {"1", "16", "8"});
         input(g, "r", F, {"1", "16", "4"});
         node(g, "LSTM", {"x", "w", "r"}, {"y"});
       },
       "X must be 3-D, not rank 2"},
      {"loss ranks", 13,
       [](GraphBuilder& g) {
         input(g, "x", F, {"2", "3"});
         input(g, "t", ElemType::Int64, {"2", "1"});
         node(g, "NegativeLogLikelihoodLoss", {"x", "t"}, {"y"});
       },
       "the targets have rank 2, the scores need rank 1"},
      {"attention kv heads", 23,
       [](GraphBuilder& g) {
         input(g, "q", F, {"1", "2", "4", "8"});
         input(g, "k", F, {"1", "2", "6", "8"});
         input(g, "v", F, {"1", "3", "6", "8"});
         node(g, "Attention", {"q", "k", "v"}, {"y"});
       },
       "the heads of K and V differ: 2 and 3"},
      {"linear attention heads", 27,
       [](GraphBuilder& g) {
         input(g, "q", F, {"1", "2", "12"});
         input(g, "k", F, {"1", "2", "8"});
         input(g, "v", F, {"1", "2", "8"});
         auto& n = node(g, "LinearAttention", {"q", "k", "v"}, {"y", "state"});
         test::set_int(n, "q_num_heads", 3);
         test::set_int(n, "kv_num_heads", 2);
         test::set_string(n, "update_rule", "linear");
       },
       "q_num_heads must be a multiple of kv_num_heads"},
      {"causal conv rank", 27,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "2"});
         input(g, "w", F, {"2", "1", "3"});
         node(g, "CausalConvWithState", {"x", "w"}, {"y", "state"});
       },
       "input must be 3-D, not rank 2"},
      {"rms axis", 23,
       [](GraphBuilder& g) {
         input(g, "x", F, {"2", "3"});
         input(g, "s", F, {"3"});
         test::set_int(node(g, "RMSNormalization", {"x", "s"}, {"y"}), "axis", -3);
       },
       "axis -3 is out of range for rank 2"},
      {"roi counts", 16,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "2", "8", "8"});
         input(g, "rois", F, {"3", "4"});
         input(g, "idx", ElemType::Int64, {"2"});
         node(g, "RoiAlign", {"x", "rois", "idx"}, {"y"});
       },
       "the counts of rois and batch_indices differ: 3 and 2"},
      {"grid sample ranks", 20,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "3", "8", "8"});
         input(g, "grid", F, {"1", "5", "2"});
         node(g, "GridSample", {"x", "grid"}, {"y"});
       },
       "grid has rank 3, X 4"},
      {"dft last dim", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"4", "3"});
         node(g, "DFT", {"x"}, {"y"});
       },
       "the input's last dim must be 1 (real) or 2 (complex), not 3"},
      {"stft frame", 17,
       [](GraphBuilder& g) {
         input(g, "x", F, {"1", "8", "1"});
         g.initializer("step", i64({}, {2}));
         g.initializer("len", i64({}, {16}));
         node(g, "STFT", {"x", "step", "", "len"}, {"y"});
       },
       "frame_length 16 does not fit the signal"},
      {"affine grid size", 20,
       [](GraphBuilder& g) {
         input(g, "theta", F, {"2", "2", "3"});
         g.initializer("size", i64({3}, {2, 3, 5}));
         node(g, "AffineGrid", {"theta", "size"}, {"y"});
       },
       "size must have 4 or 5 entries, not 3"},
      {"affine grid theta", 20,
       [](GraphBuilder& g) {
         input(g, "theta", F, {"2", "3", "4"});
         g.initializer("size", i64({4}, {2, 3, 5, 6}));
         node(g, "AffineGrid", {"theta", "size"}, {"y"});
       },
       "theta's dim 1 and the spatial rank differ: 3 and 2"},
      {"einsum term rank", 12,
       [](GraphBuilder& g) {
         input(g, "a", F, {"2", "2"});
         test::set_string(node(g, "Einsum", {"a"}, {"y"}), "equation", "ijk");
       },
       "input 0 of rank 2 does not fit its term"},
      {"einsum output label", 12,
       [](GraphBuilder& g) {
         input(g, "a", F, {"2", "2"});
         test::set_string(node(g, "Einsum", {"a"}, {"y"}), "equation", "ij->k");
       },
       "an output label is repeated or missing from the inputs"},
  };
  return all;
}

TEST(GroupCInfer, EachCheckRefusesItsModel) {
  for (const Refusal& r : refusals()) {
    SCOPED_TRACE(r.name);
    GraphBuilder g("main");
    r.build(g);
    expect_refused(g, r.opset, r.text);
  }
}

}  // namespace
}  // namespace bough
