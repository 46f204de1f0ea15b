// com.microsoft attention operators (and BERT's EmbedLayerNormalization beside them) on
// hand-worked cases: scores chosen as 0 and ln 3 so the
// softmax weights are 1/4 and 3/4 (or 1/2 and 1/2 once a mask term cancels ln 3).
// tests/peer/contrib holds ONNX Runtime's outputs for the larger cases.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "error_text.h"
#include "model_builder.h"

namespace bough::test {
namespace {

const std::string kMs = "com.microsoft";
const float kLn3 = std::log(3.0f);

Tensor i32(Dims64 dims, std::vector<int32_t> v) {
  return Tensor::from_vector<int32_t>(ElemType::Int32, Dims(std::span<const int64_t>(dims)), v);
}

void expect_values(const Tensor& t, const Dims64& dims, const std::vector<double>& want) {
  EXPECT_EQ(t.shape(), Dims(std::span<const int64_t>(dims)));
  const std::vector<double> got = doubles_of(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "element " << i;
}

// Inputs in MultiHeadAttention's order; "" names an omitted one.
struct Mha {
  Tensor q, k, v, bias, mask, attention_bias, past_k, past_v;
};

std::vector<Tensor> run_mha(const Mha& in, int outputs, const Attrs& attrs, int threads = 1) {
  NamedTensors ins;
  auto add = [&](const char* name, const Tensor& t) {
    ins.emplace_back(t.defined() ? name : "", t.defined() ? t : Tensor());
  };
  add("query", in.q);
  add("key", in.k);
  add("value", in.v);
  add("bias", in.bias);
  add("key_padding_mask", in.mask);
  add("attention_bias", in.attention_bias);
  add("past_key", in.past_k);
  add("past_value", in.past_v);
  while (!ins.empty() && ins.back().first.empty()) ins.pop_back();
  return run_node("MultiHeadAttention", ins, outputs, attrs, 1, "contrib_attention", threads, kMs);
}

Attrs heads(int64_t n, float scale = 0, bool causal = false) {
  return [=](onnxpb::NodeProto& node) {
    set_int(node, "num_heads", n);
    if (scale != 0) set_float(node, "scale", scale);
    if (causal) set_int(node, "unidirectional", 1);
  };
}

// One head, q = [1, 0], keys [0, 0] and [ln 3, 0], values [4, 8] and [0, 4]: scores 0 and
// ln 3 at scale 1, weights 1/4 and 3/4, y = [1, 2 + 3].
Mha two_keys() {
  return {f32({1, 1, 2}, {1, 0}), f32({1, 2, 2}, {0, 0, kLn3, 0}), f32({1, 2, 2}, {4, 8, 0, 4})};
}

TEST(ContribMultiHeadAttentionTest, SoftmaxWeightsTheValues) {
  expect_values(run_mha(two_keys(), 1, heads(1, 1.0f))[0], {1, 1, 2}, {1, 5});
  // The default scale is 1 / sqrt(head size 2): scores 0 and ln 3 / sqrt 2.
  const double w = 1 / (1 + std::pow(3.0, -1 / std::sqrt(2.0)));  // weight of key 1
  expect_values(run_mha(two_keys(), 1, heads(1))[0], {1, 1, 2}, {4 * (1 - w), 8 - 4 * w});
}

TEST(ContribMultiHeadAttentionTest, BiasIsAddedToQKAndV) {
  // The bias turns these inputs into two_keys(): q = 0 + [1, 0], keys unchanged (zero bias),
  // values [3, 7] and [-1, 3] + [1, 1].
  Mha in = two_keys();
  in.q = f32({1, 1, 2}, {0, 0});
  in.v = f32({1, 2, 2}, {3, 7, -1, 3});
  in.bias = f32({6}, {1, 0, 0, 0, 1, 1});
  expect_values(run_mha(in, 1, heads(1, 1.0f))[0], {1, 1, 2}, {1, 5});
}

TEST(ContribMultiHeadAttentionTest, PaddingMaskAddsTheFilterValue) {
  // Key lengths [1]: key 1 gets -10000 added, so y is value 0.
  Mha lengths = two_keys();
  lengths.mask = i32({1}, {1});
  expect_values(run_mha(lengths, 1, heads(1, 1.0f))[0], {1, 1, 2}, {4, 8});
  // A 0/1 mask with mask_filter_value -ln 3: key 1's score becomes 0, weights 1/2 and 1/2.
  Mha flags = two_keys();
  flags.mask = i32({1, 2}, {1, 0});
  auto filter = [](onnxpb::NodeProto& n) {
    set_int(n, "num_heads", 1);
    set_float(n, "scale", 1.0f);
    set_float(n, "mask_filter_value", -kLn3);
  };
  expect_values(run_mha(flags, 1, filter)[0], {1, 1, 2}, {2, 6});
  // The same per query, (batch, q_seq, total).
  flags.mask = i32({1, 1, 2}, {1, 0});
  expect_values(run_mha(flags, 1, filter)[0], {1, 1, 2}, {2, 6});
}

TEST(ContribMultiHeadAttentionTest, AttentionBiasBroadcastsOverHeads) {
  // Two heads of size 1, q = 0: scores 0 + attention_bias [0, ln 3] for both heads, weights
  // 1/4 and 3/4 of values [4, 8] and [0, 4] (head 0 reads column 0, head 1 column 1).
  Mha in{f32({1, 1, 2}, {0, 0}), f32({1, 2, 2}, {5, 6, 7, 8}), f32({1, 2, 2}, {4, 8, 0, 4})};
  in.attention_bias = f32({1, 1, 1, 2}, {0, kLn3});
  expect_values(run_mha(in, 1, heads(2))[0], {1, 1, 2}, {1, 5});
}

TEST(ContribMultiHeadAttentionTest, PastIsPrependedAndUnidirectionalHidesLaterKeys) {
  // Past key [0, 0] / value [4, 8]; new key [ln 3, 0] / value [0, 4] for query 0 = [1, 0],
  // and key [9, 9] / value [100, 100] for query 1 = [0, 0]. Query 0 (position 1) sees the past
  // and its own key: y = [1, 5]. Query 1 sees all three at score 0: y = mean of the values.
  Mha in{f32({1, 2, 2}, {1, 0, 0, 0}), f32({1, 2, 2}, {kLn3, 0, 9, 9}),
         f32({1, 2, 2}, {0, 4, 100, 100})};
  in.past_k = f32({1, 1, 1, 2}, {0, 0});
  in.past_v = f32({1, 1, 1, 2}, {4, 8});
  auto out = run_mha(in, 3, heads(1, 1.0f, true));
  expect_values(out[0], {1, 2, 2}, {1, 5, 104.0 / 3, 112.0 / 3});
  expect_values(out[1], {1, 1, 3, 2}, {0, 0, kLn3, 0, 9, 9});
  expect_values(out[2], {1, 1, 3, 2}, {4, 8, 0, 4, 100, 100});
}

TEST(ContribMultiHeadAttentionTest, KeyAndValueAlreadySplitIntoHeads) {
  // The same as two_keys() with key and value given as (batch, heads, kv_seq, size).
  Mha in = two_keys();
  in.k = f32({1, 1, 2, 2}, {0, 0, kLn3, 0});
  in.v = f32({1, 1, 2, 2}, {4, 8, 0, 4});
  expect_values(run_mha(in, 1, heads(1, 1.0f))[0], {1, 1, 2}, {1, 5});
}

TEST(ContribMultiHeadAttentionTest, ManyRowsSplitOverThreadsMatchOneThread) {
  std::vector<float> q(2 * 64 * 32), kv(2 * 80 * 32);
  for (size_t i = 0; i < q.size(); ++i) q[i] = std::sin(0.37f * static_cast<float>(i));
  for (size_t i = 0; i < kv.size(); ++i) kv[i] = std::cos(0.23f * static_cast<float>(i));
  Mha in{f32({2, 64, 32}, q), f32({2, 80, 32}, kv), f32({2, 80, 32}, kv)};
  const auto one = doubles_of(run_mha(in, 1, heads(4), 1)[0]);
  const auto four = doubles_of(run_mha(in, 1, heads(4), 4)[0]);
  EXPECT_EQ(one, four);
}

TEST(ContribMultiHeadAttentionTest, BadShapesAreRefusedClearly) {
  Mha mask = two_keys();
  mask.mask = i32({1, 3}, {1, 1, 1});
  expect_error_mentioning([&] { run_mha(mask, 1, heads(1)); },
                          "mask of shape [1,3] is none of (1), (1, 2) and (1, 1, 2)");
  Mha bias = two_keys();
  bias.bias = f32({5}, {0, 0, 0, 0, 0});
  expect_error_mentioning([&] { run_mha(bias, 1, heads(1)); }, "bias must have shape (6)");
  expect_error_mentioning([&] { run_mha(two_keys(), 1, heads(3)); },
                          "the query hidden size by num_heads: 2 is not a multiple of 3");
}

TEST(ContribMultiHeadAttentionTest, UnsupportedFormsAreInvalid) {
  expect_invalid_model([] { run_mha(two_keys(), 1, {}); });        // num_heads is required
  expect_invalid_model([] { run_mha(two_keys(), 4, heads(1)); });  // the qk output
}

// ---------------------------------------------------------------------------------------
// Attention (packed QKV weights)

// x rows [1, 0] and [0, 1] pick the weights' rows: Q = x, keys [0, 0] and [ln 3, 0], values
// [4, 8] and [0, 4]. Query 0 scores 0 and ln 3 (y = [1, 5]); query 1 scores 0 and 0 (y = the
// mean, [2, 6]).
const std::vector<float> kWeights = {1, 0, 0, 0, 4, 8, 0, 1, 0, 0, 0, 4};

NamedTensors attention_inputs(Tensor x, Tensor bias = {}, Tensor mask = {}, Tensor past = {}) {
  std::vector<float> w = kWeights;
  w[8] = kLn3;  // row 1's key
  NamedTensors ins{{"input", std::move(x)}, {"weights", f32({2, 6}, w)}};
  for (auto [name, t] : {std::pair{"bias", bias}, {"mask_index", mask}, {"past", past}})
    ins.emplace_back(t.defined() ? name : "", t);
  while (ins.back().first.empty()) ins.pop_back();
  return ins;
}

std::vector<Tensor> run_attention(const NamedTensors& ins, int outputs, const Attrs& attrs) {
  return run_node("Attention", ins, outputs, attrs, 1, "contrib_attention", 1, kMs);
}

const Tensor kTwoRows = f32({1, 2, 2}, {1, 0, 0, 1});

TEST(ContribAttentionTest, PackedWeightsWithAndWithoutBias) {
  expect_values(run_attention(attention_inputs(kTwoRows), 1, heads(1, 1.0f))[0], {1, 2, 2},
                {1, 5, 2, 6});
  // A V bias of [1, 1] adds 1 to every output: the weights sum to 1.
  expect_values(
      run_attention(attention_inputs(kTwoRows, f32({6}, {0, 0, 0, 0, 1, 1})), 1, heads(1, 1.0f))[0],
      {1, 2, 2}, {2, 6, 3, 7});
}

TEST(ContribAttentionTest, UnidirectionalAndMaskIndexForms) {
  // Query 0 sees only key 0.
  expect_values(run_attention(attention_inputs(kTwoRows), 1, heads(1, 1.0f, true))[0], {1, 2, 2},
                {4, 8, 2, 6});
  // (2 * batch): end 2, start 1 masks key 0 for both queries: y = value 1.
  expect_values(
      run_attention(attention_inputs(kTwoRows, {}, i32({2}, {2, 1})), 1, heads(1, 1.0f))[0],
      {1, 2, 2}, {0, 4, 0, 4});
  // Key lengths (batch) = 1 masks key 1.
  expect_values(run_attention(attention_inputs(kTwoRows, {}, i32({1}, {1})), 1, heads(1, 1.0f))[0],
                {1, 2, 2}, {4, 8, 4, 8});
}

TEST(ContribAttentionTest, PastIsStackedKeyThenValue) {
  // One new row x = [0, 1]: Q [0, 1], key [ln 3, 0], value [0, 4]. Past key [0, ln 3] scores
  // ln 3, the new key 0: weights 3/4 and 1/4 of past value [1, 1] and [0, 4], y = [0.75, 1.75].
  // present = (key: past, new; value: past, new).
  auto out = run_attention(
      attention_inputs(f32({1, 1, 2}, {0, 1}), {}, {}, f32({2, 1, 1, 1, 2}, {0, kLn3, 1, 1})), 2,
      heads(1, 1.0f));
  expect_values(out[0], {1, 1, 2}, {0.75, 1.75});
  expect_values(out[1], {2, 1, 1, 2, 2}, {0, kLn3, kLn3, 0, 1, 1, 0, 4});
}

TEST(ContribAttentionTest, BadShapesAreRefusedClearly) {
  expect_error_mentioning(
      [] {
        run_attention(attention_inputs(kTwoRows, {}, i32({3}, {1, 1, 1})), 1, heads(1));
      },
      "mask of shape [3] is none of (1), (2), (1, 2) and (1, 2, 2)");
  expect_error_mentioning(
      [] {
        run_attention({{"input", kTwoRows}, {"weights", f32({2, 4}, {0, 0, 0, 0, 0, 0, 0, 0})}}, 1,
                      heads(1));
      },
      "the weights' columns into Q, K and V: 4 is not a multiple of 3");
  expect_invalid_model([] {
    run_attention(attention_inputs(kTwoRows), 1, [](onnxpb::NodeProto& n) {
      set_int(n, "num_heads", 1);
      set_int(n, "do_rotary", 1);
    });
  });
}

// ---------------------------------------------------------------------------------------
// GroupQueryAttention

std::vector<Tensor> run_gqa(NamedTensors ins, int outputs) {
  return run_node(
      "GroupQueryAttention", ins, outputs,
      [](onnxpb::NodeProto& n) {
        set_int(n, "num_heads", 2);
        set_int(n, "kv_num_heads", 1);
      },
      1, "contrib_attention", 1, kMs);
}

NamedTensors gqa_inputs(Tensor q, Tensor k, Tensor v, Tensor past_k, Tensor past_v, int32_t seqlen,
                        int32_t total) {
  NamedTensors ins{{"query", std::move(q)},
                   {k.defined() ? "key" : "", k},
                   {v.defined() ? "value" : "", v},
                   {past_k.defined() ? "past_key" : "", past_k},
                   {past_v.defined() ? "past_value" : "", past_v}};
  ins.emplace_back("seqlens_k", i32({1}, {seqlen}));
  ins.emplace_back("total_sequence_length", i32({}, {total}));
  return ins;
}

// Two query heads of size 1 share one kv head: keys [0, ln 3], values [4, 0]. Row 0 sees key
// 0 only (y = 4, 4); row 1 has q = [1, 0]: head 0 scores 0 and ln 3 (weights 1/4, 3/4: y = 1),
// head 1 scores 0 and 0 (y = 2).
TEST(ContribGroupQueryAttentionTest, QueryHeadsShareTheKvHeadCausally) {
  auto out = run_gqa(gqa_inputs(f32({1, 2, 2}, {5, 5, 1, 0}), f32({1, 2, 1}, {0, kLn3}),
                                f32({1, 2, 1}, {4, 0}), {}, {}, 1, 2),
                     3);
  expect_values(out[0], {1, 2, 2}, {4, 4, 1, 2});
  expect_values(out[1], {1, 1, 2, 1}, {0, kLn3});
  // Packed QKV rows [q0, q1, k, v] give the same.
  auto packed =
      run_gqa(gqa_inputs(f32({1, 2, 4}, {5, 5, 0, 4, 1, 0, kLn3, 0}), {}, {}, {}, {}, 1, 2), 1);
  expect_values(packed[0], {1, 2, 2}, {4, 4, 1, 2});
}

TEST(ContribGroupQueryAttentionTest, DecodingAppendsToThePast) {
  // Past key 0 / value 4, new key ln 3 / value 0, q = [1, 0]: y = [1, 2].
  auto out = run_gqa(gqa_inputs(f32({1, 1, 2}, {1, 0}), f32({1, 1, 1}, {kLn3}), f32({1, 1, 1}, {0}),
                                f32({1, 1, 1, 1}, {0}), f32({1, 1, 1, 1}, {4}), 1, 2),
                     3);
  expect_values(out[0], {1, 1, 2}, {1, 2});
  expect_values(out[1], {1, 1, 2, 1}, {0, kLn3});
  expect_values(out[2], {1, 1, 2, 1}, {4, 0});
}

TEST(ContribGroupQueryAttentionTest, APaddedPromptSeesOnlyItsKeys) {
  // seqlens_k 0: one real token; the padding row 1 sees key 0 only (y = 4, 4).
  auto out = run_gqa(gqa_inputs(f32({1, 2, 2}, {5, 5, 1, 0}), f32({1, 2, 1}, {0, kLn3}),
                                f32({1, 2, 1}, {4, 0}), {}, {}, 0, 2),
                     1);
  expect_values(out[0], {1, 2, 2}, {4, 4, 4, 4});
}

TEST(ContribGroupQueryAttentionTest, RotaryTurnsNewQueriesAndKeys) {
  // cos 0, sin 1 at both positions: [a, b] turns to [-b, a]. Row 1, head 0: q [1, 0] -> [0, 1]
  // and key 0 [ln 3, 0] -> [0, ln 3] score ln 3 (only if both turn), key 1 [0, 0] scores 0:
  // weights 3/4 and 1/4 of values [4, 8] and [0, 4], y = [3, 7]. Head 1 (q 0): the mean
  // [2, 6]. Row 0 sees key 0 only: [4, 8] for both heads.
  NamedTensors ins =
      gqa_inputs(f32({1, 2, 4}, {9, 9, 9, 9, 1, 0, 0, 0}), f32({1, 2, 2}, {kLn3, 0, 0, 0}),
                 f32({1, 2, 2}, {4, 8, 0, 4}), {}, {}, 1, 2);
  ins.emplace_back("cos_cache", f32({2, 1}, {0, 0}));
  ins.emplace_back("sin_cache", f32({2, 1}, {1, 1}));
  auto out = run_node(
      "GroupQueryAttention", ins, 2,
      [](onnxpb::NodeProto& n) {
        set_int(n, "num_heads", 2);
        set_int(n, "kv_num_heads", 1);
        set_int(n, "do_rotary", 1);
        set_float(n, "scale", 1.0f);
      },
      1, "contrib_attention", 1, kMs);
  expect_values(out[0], {1, 2, 4}, {4, 8, 4, 8, 3, 7, 2, 6});
  expect_values(out[1], {1, 1, 2, 2}, {0, kLn3, 0, 0});
}

TEST(ContribGroupQueryAttentionTest, LengthsThatDoNotFitAreBadInput) {
  auto run = [](int32_t seqlen, int32_t total) {
    run_gqa(gqa_inputs(f32({1, 1, 2}, {1, 0}), f32({1, 1, 1}, {0}), f32({1, 1, 1}, {0}), {}, {},
                       seqlen, total),
            1);
  };
  expect_error_mentioning([&] { run(5, 1); },
                          "seqlens_k[0] = 5 does not fit 1 new tokens, total_sequence_length 1");
  expect_error_mentioning(
      [&] { run(0, 2); },
      "without past_key, total_sequence_length 2 must be the sequence length 1");
}

// ---------------------------------------------------------------------------------------
// EmbedLayerNormalization

NamedTensors embed_inputs(std::vector<int32_t> ids) {
  return {{"input_ids", i32({1, 2}, std::move(ids))},
          {"", Tensor()},
          {"word_embedding", f32({2, 2}, {1, 3, 0, 0})},
          {"position_embedding", f32({2, 2}, {0, 0, 2, 2})},
          {"", Tensor()},
          {"gamma", f32({2}, {2, 1})},
          {"beta", f32({2}, {0.5f, 0})},
          {"mask", i32({1, 2}, {1, 2})}};
}

TEST(ContribEmbedLayerNormalizationTest, SumsTheTablesThenNormalizes) {
  // Token 0: word [1, 3] + position [0, 0]: mean 2, variance 1, normalized [-1, 1], times
  // gamma [2, 1] plus beta [0.5, 0]: [-1.5, 1]. Token 1: [0, 0] + [2, 2] has no spread, so
  // beta. mask_index counts the mask's ones (the 2 is not one).
  auto out = run_node("EmbedLayerNormalization", embed_inputs({0, 1}), 3, {}, 1,
                      "contrib_attention", 1, kMs);
  expect_values(out[0], {1, 2, 2}, {-1.5, 1, 0.5, 0});
  EXPECT_EQ(doubles_of(out[1]), std::vector<double>{1});
  expect_values(out[2], {1, 2, 2}, {1, 3, 2, 2});
}

TEST(ContribEmbedLayerNormalizationTest, AnIdOutsideTheTableIsBadInput) {
  expect_error_mentioning(
      [] {
        run_node("EmbedLayerNormalization", embed_inputs({0, 5}), 1, {}, 1, "contrib_attention", 1,
                 kMs);
      },
      "input id 5 is outside the table's 2 rows");
}

}  // namespace
}  // namespace bough::test
