// Attention, normalization and loss operators on what the conformance tests leave out: bad
// shapes, indices and attribute combinations (which must fail with BadInput, not crash),
// and a few values worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "bough/error.h"
#include "bough/session.h"
#include "kernels/convert.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Attrs;
using test::expect_bad_input;
using test::expect_invalid_model;
using test::f32;
using test::i64;
using test::set_string;
using Inputs = test::NamedTensors;

std::vector<Tensor> run_op(const std::string& op, const test::NamedTensors& ins, int outputs,
                           const test::Attrs& attrs = {}, int64_t opset = 27, int threads = 1) {
  return test::run_node(op, ins, outputs, attrs, opset, "attloss", threads);
}

Tensor zeros(test::Dims64 dims) { return Tensor::zeros(ElemType::Float, Dims(std::span(dims))); }

// ---------------------------------------------------------------------------------------
// Attention

TEST(AttentionLossTest, AttentionRejectsBadShapes) {
  auto heads = [](onnxpb::NodeProto& n) {
    test::set_int(n, "q_num_heads", 2);
    test::set_int(n, "kv_num_heads", 2);
  };
  // 3-D inputs without head counts (refused by the check's inference).
  expect_invalid_model([] {
    run_op("Attention", {{"q", zeros({1, 2, 4})}, {"k", zeros({1, 2, 4})}, {"v", zeros({1, 2, 4})}},
           1);
  });
  // Q and K head sizes differ (refused by the check's inference).
  expect_invalid_model([] {
    run_op("Attention",
           {{"q", zeros({1, 1, 2, 4})}, {"k", zeros({1, 1, 2, 3})}, {"v", zeros({1, 1, 2, 4})}}, 1);
  });
  // 3 query heads over 2 key/value heads.
  expect_bad_input([] {
    run_op("Attention",
           {{"q", zeros({1, 3, 2, 4})}, {"k", zeros({1, 2, 2, 4})}, {"v", zeros({1, 2, 2, 4})}}, 1);
  });
  // A mask wider than the keys, and one that does not broadcast.
  expect_bad_input([&] {
    run_op("Attention",
           {{"q", zeros({1, 2, 8})},
            {"k", zeros({1, 3, 8})},
            {"v", zeros({1, 3, 8})},
            {"m", zeros({2, 4})}},
           1, heads);
  });
  expect_bad_input([&] {
    run_op("Attention",
           {{"q", zeros({1, 2, 8})},
            {"k", zeros({1, 3, 8})},
            {"v", zeros({1, 3, 8})},
            {"m", zeros({3, 2, 3})}},
           1, heads);
  });
  // past_key without past_value, and a past of the wrong head size.
  expect_bad_input([] {
    run_op("Attention",
           {{"q", zeros({1, 1, 2, 4})},
            {"k", zeros({1, 1, 2, 4})},
            {"v", zeros({1, 1, 2, 4})},
            {"", Tensor()},
            {"pk", zeros({1, 1, 3, 4})}},
           1);
  });
  expect_bad_input([] {
    run_op("Attention",
           {{"q", zeros({1, 1, 2, 4})},
            {"k", zeros({1, 1, 2, 4})},
            {"v", zeros({1, 1, 2, 4})},
            {"", Tensor()},
            {"pk", zeros({1, 1, 3, 5})},
            {"pv", zeros({1, 1, 3, 4})}},
           1);
  });
  // nonpad_kv_seqlen of the wrong length.
  expect_bad_input([] {
    run_op("Attention",
           {{"q", zeros({1, 1, 2, 4})},
            {"k", zeros({1, 1, 2, 4})},
            {"v", zeros({1, 1, 2, 4})},
            {"", Tensor()},
            {"", Tensor()},
            {"", Tensor()},
            {"n", i64({2}, {1, 1})}},
           1, {}, 24);
  });
}

TEST(AttentionLossTest, AttentionCausalDecodeWithPastAndPresent) {
  // One query over a past of one key and one new key; causal lets it see both. Q·K = 0 for
  // both keys, so the weights are equal and Y is the mean of the values, (1 + 3) / 2 = 2.
  auto r = run_op("Attention",
                  {{"q", f32({1, 1, 1, 1}, {0})},
                   {"k", f32({1, 1, 1, 1}, {5})},
                   {"v", f32({1, 1, 1, 1}, {3})},
                   {"", Tensor()},
                   {"pk", f32({1, 1, 1, 1}, {7})},
                   {"pv", f32({1, 1, 1, 1}, {1})}},
                  3, [](onnxpb::NodeProto& n) { test::set_int(n, "is_causal", 1); });
  EXPECT_EQ(test::floats_of(r[0]), (std::vector<float>{2}));
  EXPECT_EQ(r[1].shape(), (Dims{1, 1, 2, 1}));
  EXPECT_EQ(test::floats_of(r[1]), (std::vector<float>{7, 5}));
  EXPECT_EQ(test::floats_of(r[2]), (std::vector<float>{1, 3}));
}

Tensor ramp(test::Dims64 dims, float step) {
  Tensor t = zeros(dims);
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = std::sin(step * float(i));
  return t;
}

TEST(AttentionLossTest, AttentionAndLinearAttentionMatchAcrossThreadCounts) {
  // Large enough to split across threads; each row is computed the same way either way.
  const Inputs att = {{"q", ramp({2, 48, 8 * 16}, 0.37f)}, {"k", ramp({2, 40, 2 * 16}, 0.11f)},
                      {"v", ramp({2, 40, 2 * 12}, 0.23f)}, {"m", ramp({48, 40}, 0.05f)},
                      {"pk", ramp({2, 2, 8, 16}, 0.31f)},  {"pv", ramp({2, 2, 8, 12}, 0.17f)}};
  auto attrs = [](onnxpb::NodeProto& n) {
    test::set_int(n, "q_num_heads", 8);
    test::set_int(n, "kv_num_heads", 2);
    test::set_int(n, "is_causal", 1);
    test::set_int(n, "qk_matmul_output_mode", 3);
  };
  auto one = run_op("Attention", att, 4, attrs, 24, 1);
  auto four = run_op("Attention", att, 4, attrs, 24, 4);
  ASSERT_EQ(one[0].shape(), (Dims{2, 48, 8 * 12}));
  ASSERT_EQ(one[3].shape(), (Dims{2, 8, 48, 48}));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(test::floats_of(one[i]), test::floats_of(four[i])) << i;

  const Inputs lin = {{"q", ramp({3, 6, 4 * 8}, 0.3f)}, {"k", ramp({3, 6, 2 * 8}, 0.2f)},
                      {"v", ramp({3, 6, 2 * 8}, 0.1f)}, {"", Tensor()},
                      {"g", ramp({3, 6, 2}, 0.4f)},     {"b", ramp({3, 6, 2}, 0.6f)}};
  auto heads = [](onnxpb::NodeProto& n) {
    test::set_int(n, "q_num_heads", 4);
    test::set_int(n, "kv_num_heads", 2);
  };
  auto l1 = run_op("LinearAttention", lin, 2, heads, 27, 1);
  auto l4 = run_op("LinearAttention", lin, 2, heads, 27, 4);
  for (int i = 0; i < 2; ++i) EXPECT_EQ(test::floats_of(l1[i]), test::floats_of(l4[i])) << i;
}

// ---------------------------------------------------------------------------------------
// Normalization, rotary embedding, elementwise

TEST(AttentionLossTest, RotaryEmbeddingRejectsBadCachesAndPositions) {
  const Tensor x = zeros({1, 1, 2, 4});
  expect_bad_input([&] {  // position 5 of a 4-row cache
    run_op("RotaryEmbedding",
           {{"x", x}, {"c", zeros({4, 2})}, {"s", zeros({4, 2})}, {"p", i64({1, 2}, {0, 5})}}, 1);
  });
  expect_bad_input([&] {  // caches of half width 3 for a head of 4
    run_op("RotaryEmbedding",
           {{"x", x}, {"c", zeros({4, 3})}, {"s", zeros({4, 3})}, {"p", i64({1, 2}, {0, 1})}}, 1);
  });
  expect_bad_input([&] {  // an odd rotary dimension
    run_op("RotaryEmbedding",
           {{"x", x}, {"c", zeros({4, 2})}, {"s", zeros({4, 2})}, {"p", i64({1, 2}, {0, 1})}}, 1,
           [](onnxpb::NodeProto& n) { test::set_int(n, "rotary_embedding_dim", 3); });
  });
}

TEST(AttentionLossTest, RMSNormalizationOnFloat16AndBadScale) {
  // Row (3, 4): mean square 12.5, so y = x / sqrt(12.5) * 2 = (1.697, 2.263).
  const Tensor x = kernels::cast(f32({1, 2}, {3, 4}), ElemType::Float16);
  const Tensor s = kernels::cast(f32({2}, {2, 2}), ElemType::Float16);
  Tensor y = run_op("RMSNormalization", {{"x", x}, {"s", s}}, 1, {}, 23)[0];
  ASSERT_EQ(y.type(), ElemType::Float16);
  EXPECT_NEAR(y.get_double(0), 1.697, 2e-3);
  EXPECT_NEAR(y.get_double(1), 2.263, 2e-3);
  expect_bad_input([] {
    run_op("RMSNormalization", {{"x", zeros({2, 3})}, {"s", zeros({2})}}, 1, {}, 23);
  });
}

// stash_type names the float type statistics are kept in: int64 (7), a code no type has, and
// 2^32 + 1 (which an int cast would wrap to float's 1) are all refused.
TEST(AttentionLossTest, NormalizationsRefuseAStashTypeThatIsNoFloat) {
  const Tensor x = zeros({2, 3}), s = zeros({3}), b = zeros({3});
  for (int64_t stash : {int64_t{7}, int64_t{99}, (int64_t{1} << 32) + 1}) {
    const test::Attrs attrs = [stash](onnxpb::NodeProto& n) {
      test::set_int(n, "stash_type", stash);
    };
    SCOPED_TRACE(stash);
    expect_invalid_model([&] {
      run_op("LayerNormalization", {{"x", x}, {"s", s}, {"b", b}}, 1, attrs, 17);
    });
    expect_invalid_model([&] { run_op("RMSNormalization", {{"x", x}, {"s", s}}, 1, attrs, 23); });
  }
  // Double is a float type: accepted, and y = (x - mean) / sqrt(var + eps) * s + b = 0 here.
  const Tensor y = run_op(
      "LayerNormalization", {{"x", x}, {"s", s}, {"b", b}}, 1,
      [](onnxpb::NodeProto& n) { test::set_int(n, "stash_type", 11); }, 17)[0];
  EXPECT_EQ(y.get_double(0), 0.0);
}

TEST(AttentionLossTest, ElementwiseRejectsMismatches) {
  expect_invalid_model(  // refused by the check's inference
      [] {
        run_op("SwiGLU", {{"a", zeros({2})}, {"b", zeros({3})}}, 1, {}, 28);
      });
  expect_invalid_model([] {  // float to int64 changes the width: refused by the check
    run_op(
        "BitCast", {{"x", zeros({2})}}, 1, [](onnxpb::NodeProto& n) { test::set_int(n, "to", 7); },
        26);
  });
  expect_bad_input([] { run_op("CumProd", {{"x", zeros({2})}, {"a", i64({}, {1})}}, 1, {}, 26); });
}

// ---------------------------------------------------------------------------------------
// Losses

TEST(AttentionLossTest, LossesRejectBadTargetsAndWeights) {
  const Tensor x = zeros({2, 3});
  expect_bad_input([&] {  // class 3 of 3
    run_op("NegativeLogLikelihoodLoss", {{"x", x}, {"t", i64({2}, {0, 3})}}, 1);
  });
  expect_invalid_model([&] {  // targets of the wrong shape, refused by the check
    run_op("NegativeLogLikelihoodLoss", {{"x", x}, {"t", i64({3}, {0, 1, 2})}}, 1);
  });
  expect_bad_input([&] {  // weights for 2 classes
    run_op("NegativeLogLikelihoodLoss", {{"x", x}, {"t", i64({2}, {0, 1})}, {"w", zeros({2})}}, 1);
  });
  expect_bad_input([&] {
    run_op("SoftmaxCrossEntropyLoss", {{"x", x}, {"t", i64({2}, {-1, 0})}}, 1);
  });
}

TEST(AttentionLossTest, NegativeLogLikelihoodLossSkipsIgnoredTargets) {
  // Targets 0 (ignored) and 2: the mean is -x[1, 2] / 1 = 6.
  Tensor y = run_op("NegativeLogLikelihoodLoss",
                    {{"x", f32({2, 3}, {-1, -2, -3, -4, -5, -6})}, {"t", i64({2}, {0, 2})}}, 1,
                    [](onnxpb::NodeProto& n) { test::set_int(n, "ignore_index", 0); })[0];
  EXPECT_EQ(test::floats_of(y), (std::vector<float>{6}));
}

// ---------------------------------------------------------------------------------------
// Recurrent state operators

TEST(AttentionLossTest, LinearAttentionRejectsBadInputs) {
  auto heads = [](onnxpb::NodeProto& n) {
    test::set_int(n, "q_num_heads", 1);
    test::set_int(n, "kv_num_heads", 1);
  };
  const Tensor q = zeros({1, 2, 4});
  expect_bad_input([&] {  // gated_delta without decay and beta
    run_op("LinearAttention", {{"q", q}, {"k", q}, {"v", q}}, 2, heads);
  });
  expect_bad_input([&] {  // a past state of the wrong size
    run_op("LinearAttention", {{"q", q}, {"k", q}, {"v", q}, {"s", zeros({1, 1, 4, 3})}}, 2,
           [&](onnxpb::NodeProto& n) {
             heads(n);
             set_string(n, "update_rule", "linear");
           });
  });
}

TEST(AttentionLossTest, CausalConvWithStateRejectsBadWeightsAndState) {
  const Tensor x = zeros({1, 2, 3});
  // Weights for 3 channels over 2: refused by the check's inference.
  expect_invalid_model([&] {
    run_op("CausalConvWithState", {{"x", x}, {"w", zeros({3, 1, 2})}}, 2);
  });
  expect_bad_input([&] {
    run_op("CausalConvWithState",
           {{"x", x}, {"w", zeros({2, 1, 2})}, {"", Tensor()}, {"s", zeros({1, 2, 2})}}, 2);
  });
}

TEST(AttentionLossTest, CausalConvWithStateCarriesTheState) {
  // Kernel (1, 1) over past 5 then input 1, 2: y = (5 + 1, 1 + 2) = (6, 3); state = 2.
  auto r = run_op("CausalConvWithState",
                  {{"x", f32({1, 1, 2}, {1, 2})},
                   {"w", f32({1, 1, 2}, {1, 1})},
                   {"", Tensor()},
                   {"s", f32({1, 1, 1}, {5})}},
                  2);
  EXPECT_EQ(test::floats_of(r[0]), (std::vector<float>{6, 3}));
  EXPECT_EQ(test::floats_of(r[1]), (std::vector<float>{2}));
}

}  // namespace
}  // namespace bough
