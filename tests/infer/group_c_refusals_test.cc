// Type and shape inference of the neural-network operators (group C): one refusal per
// inference check, each a one-node model refused by infer::validate with a message at the
// node.
#include <gtest/gtest.h>

#include <functional>
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
         symbolic_input(g, "x", F, {"1", "3", "5", "5"});
         symbolic_input(g, "w", F, {"4", "1", "3", "3"});
         test::set_int(one_node(g, "Conv", {"x", "w"}, {"y"}), "group", 2);
       },
       "input channels by group: 3 is not a multiple of 2"},
      {"conv weights rank", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "3", "5", "5"});
         symbolic_input(g, "w", F, {"4", "3", "3"});
         one_node(g, "Conv", {"x", "w"}, {"y"});
       },
       "the weights have rank 3, the input 4"},
      {"conv kernel_shape", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "3", "5", "5"});
         symbolic_input(g, "w", F, {"4", "3", "3", "3"});
         ints(one_node(g, "Conv", {"x", "w"}, {"y"}), "kernel_shape", {2, 2});
       },
       "kernel_shape and the weights' dims differ"},
      {"conv strides", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "3", "5", "5"});
         symbolic_input(g, "w", F, {"4", "3", "3", "3"});
         ints(one_node(g, "Conv", {"x", "w"}, {"y"}), "strides", {0, 1});
       },
       "strides and dilations must be positive"},
      {"pool kernel rank", 12,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "1", "4", "4"});
         ints(one_node(g, "MaxPool", {"x"}, {"y"}), "kernel_shape", {2});
       },
       "the kernel has 1 spatial dims, the input 2"},
      {"global pool rank", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"4"});
         one_node(g, "GlobalMaxPool", {"x"}, {"y"});
       },
       "the input needs rank 2 or more"},
      {"conv transpose channels", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "2", "3", "3"});
         symbolic_input(g, "w", F, {"3", "3", "3", "3"});
         one_node(g, "ConvTranspose", {"x", "w"}, {"y"});
       },
       "input channels and the weights' dim 0 differ: 2 and 3"},
      {"conv transpose output_padding", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "2", "3", "3"});
         symbolic_input(g, "w", F, {"2", "3", "3", "3"});
         ints(one_node(g, "ConvTranspose", {"x", "w"}, {"y"}), "output_padding", {1});
       },
       "output_padding has 1 values, expected 2"},
      {"max unpool kernel", 11,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "1", "2", "2"});
         symbolic_input(g, "i", ElemType::Int64, {"1", "1", "2", "2"});
         ints(one_node(g, "MaxUnpool", {"x", "i"}, {"y"}), "kernel_shape", {2});
       },
       "kernel_shape has 1 values, expected 2"},
      {"matmul scalar", 13,
       [](GraphBuilder& g) {
         symbolic_input(g, "a", F, {});
         symbolic_input(g, "b", F, {"2"});
         one_node(g, "MatMul", {"a", "b"}, {"y"});
       },
       "MatMul inputs cannot be scalars"},
      {"gemm rank", 13,
       [](GraphBuilder& g) {
         symbolic_input(g, "a", F, {"2", "3", "4"});
         symbolic_input(g, "b", F, {"4", "5"});
         one_node(g, "Gemm", {"a", "b"}, {"y"});
       },
       "A must be 2-D, not rank 3"},
      {"rnn directions", 14,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"S", "B", "8"});
         symbolic_input(g, "w", F, {"2", "4", "8"});
         symbolic_input(g, "r", F, {"2", "4", "4"});
         one_node(g, "RNN", {"x", "w", "r"}, {"y"});
       },
       "W has 2 directions, direction 'forward' needs 1"},
      {"gru hidden", 14,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"S", "B", "8"});
         symbolic_input(g, "w", F, {"1", "10", "8"});
         symbolic_input(g, "r", F, {"1", "10", "4"});
         one_node(g, "GRU", {"x", "w", "r"}, {"y"});
       },
       "W's dim 1 (10) is not a multiple of 3"},
      {"lstm x rank", 14,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"S", "8"});
         symbolic_input(g, "w", F, {"1", "16", "8"});
         symbolic_input(g, "r", F, {"1", "16", "4"});
         one_node(g, "LSTM", {"x", "w", "r"}, {"y"});
       },
       "X must be 3-D, not rank 2"},
      {"loss ranks", 13,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"2", "3"});
         symbolic_input(g, "t", ElemType::Int64, {"2", "1"});
         one_node(g, "NegativeLogLikelihoodLoss", {"x", "t"}, {"y"});
       },
       "the targets have rank 2, the scores need rank 1"},
      {"attention kv heads", 23,
       [](GraphBuilder& g) {
         symbolic_input(g, "q", F, {"1", "2", "4", "8"});
         symbolic_input(g, "k", F, {"1", "2", "6", "8"});
         symbolic_input(g, "v", F, {"1", "3", "6", "8"});
         one_node(g, "Attention", {"q", "k", "v"}, {"y"});
       },
       "the heads of K and V differ: 2 and 3"},
      {"linear attention heads", 27,
       [](GraphBuilder& g) {
         symbolic_input(g, "q", F, {"1", "2", "12"});
         symbolic_input(g, "k", F, {"1", "2", "8"});
         symbolic_input(g, "v", F, {"1", "2", "8"});
         auto& n = one_node(g, "LinearAttention", {"q", "k", "v"}, {"y", "state"});
         test::set_int(n, "q_num_heads", 3);
         test::set_int(n, "kv_num_heads", 2);
         test::set_string(n, "update_rule", "linear");
       },
       "q_num_heads must be a multiple of kv_num_heads"},
      {"causal conv rank", 27,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "2"});
         symbolic_input(g, "w", F, {"2", "1", "3"});
         one_node(g, "CausalConvWithState", {"x", "w"}, {"y", "state"});
       },
       "input must be 3-D, not rank 2"},
      {"rms axis", 23,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"2", "3"});
         symbolic_input(g, "s", F, {"3"});
         test::set_int(one_node(g, "RMSNormalization", {"x", "s"}, {"y"}), "axis", -3);
       },
       "axis -3 is out of range for rank 2"},
      {"roi counts", 16,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "2", "8", "8"});
         symbolic_input(g, "rois", F, {"3", "4"});
         symbolic_input(g, "idx", ElemType::Int64, {"2"});
         one_node(g, "RoiAlign", {"x", "rois", "idx"}, {"y"});
       },
       "the counts of rois and batch_indices differ: 3 and 2"},
      {"grid sample ranks", 20,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "3", "8", "8"});
         symbolic_input(g, "grid", F, {"1", "5", "2"});
         one_node(g, "GridSample", {"x", "grid"}, {"y"});
       },
       "grid has rank 3, X 4"},
      {"dft last dim", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"4", "3"});
         one_node(g, "DFT", {"x"}, {"y"});
       },
       "the input's last dim must be 1 (real) or 2 (complex), not 3"},
      {"stft frame", 17,
       [](GraphBuilder& g) {
         symbolic_input(g, "x", F, {"1", "8", "1"});
         g.initializer("step", i64({}, {2}));
         g.initializer("len", i64({}, {16}));
         one_node(g, "STFT", {"x", "step", "", "len"}, {"y"});
       },
       "frame_length 16 does not fit the signal"},
      {"affine grid size", 20,
       [](GraphBuilder& g) {
         symbolic_input(g, "theta", F, {"2", "2", "3"});
         g.initializer("size", i64({3}, {2, 3, 5}));
         one_node(g, "AffineGrid", {"theta", "size"}, {"y"});
       },
       "size must have 4 or 5 entries, not 3"},
      {"affine grid theta", 20,
       [](GraphBuilder& g) {
         symbolic_input(g, "theta", F, {"2", "3", "4"});
         g.initializer("size", i64({4}, {2, 3, 5, 6}));
         one_node(g, "AffineGrid", {"theta", "size"}, {"y"});
       },
       "theta's dim 1 and the spatial rank differ: 3 and 2"},
      {"einsum term rank", 12,
       [](GraphBuilder& g) {
         symbolic_input(g, "a", F, {"2", "2"});
         test::set_string(one_node(g, "Einsum", {"a"}, {"y"}), "equation", "ijk");
       },
       "input 0 of rank 2 does not fit its term"},
      {"einsum output label", 12,
       [](GraphBuilder& g) {
         symbolic_input(g, "a", F, {"2", "2"});
         test::set_string(one_node(g, "Einsum", {"a"}, {"y"}), "equation", "ij->k");
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
