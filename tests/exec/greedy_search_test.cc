// com.microsoft GreedySearch over a decoder whose logits are a fixed table: the logits of a
// position are row t of the table, t the token there, so the next token follows by hand.
// Vocabulary 6, eos_token_id 4, pad_token_id 5. Each row's largest score is its pick:
//
//   row 0: [2, 0, 1, 0, 0,   0]  -> 0   (2 second)
//   row 1: [0, 0, 3, 1, 0,   0]  -> 2
//   row 2: [0, 0, 0, 2, 1.5, 0]  -> 3
//   row 3: [0, 1, 0, 0, 2,   0]  -> 4 = eos   (1 second)
//   row 4, row 5: [1, 0, 0, 0, 0, 0] -> 0
//
// The decoder's one past grows by the step's length each step (present = past ++ zeros),
// as a KV cache does; the test checks the sequences and that the cache is what was fed back.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"
#include "error_text.h"
#include "exec/control/generation_scores.h"
#include "exec/generation_models.h"

namespace bough {
namespace {

using test::GraphBuilder;

constexpr int64_t kVocab = 6;

using test::i32;
using test::ints_of;

// logits = table[input_ids] (batch, steps, 6); present_0 = past_0 ++ zeros (2, batch, 1, steps,
// 1) along the past axis. With `check_cache`, logits also get 100 * (past length + steps -
// mask length), which is 0 exactly when the past carried over holds every earlier step.
GraphBuilder table_decoder(bool check_cache = true) {
  GraphBuilder d("decoder");
  d.input("input_ids", ElemType::Int32, {}, false)
      .input("position_ids", ElemType::Int32, {}, false)
      .input("attention_mask", ElemType::Int32, {}, false)
      .input("past_0", ElemType::Float, {2, -1, 1, -1, 1});
  d.output_untyped("logits").output_untyped("present_0");
  d.initializer("table", test::f32({kVocab, kVocab}, {2, 0, 1, 0, 0,   0,  //
                                                      0, 0, 3, 1, 0,   0,  //
                                                      0, 0, 0, 2, 1.5, 0,  //
                                                      0, 1, 0, 0, 2,   0,  //
                                                      1, 0, 0, 0, 0,   0,  //
                                                      1, 0, 0, 0, 0,   0}));
  d.initializer("axes", test::i64({3}, {0, 2, 4}));
  d.node("Gather", {"table", "input_ids"}, {check_cache ? "table_logits" : "logits"});
  d.node("Cast", {"input_ids"}, {"ids_f"});
  test::set_int(d.graph_node_last(), "to", static_cast<int64_t>(ElemType::Float));
  d.node("Sub", {"ids_f", "ids_f"}, {"zeros2"});
  d.node("Unsqueeze", {"zeros2", "axes"}, {"zeros5"});
  d.node("Concat", {"zeros5", "zeros5"}, {"new_kv"});
  test::set_int(d.graph_node_last(), "axis", 0);
  d.node("Concat", {"past_0", "new_kv"}, {"present_0"});
  test::set_int(d.graph_node_last(), "axis", 3);
  if (check_cache) {
    // 100 * (past + steps - mask) added to every logit, a (1) tensor.
    d.initializer("i1", test::i64({1}, {1})).initializer("i3", test::i64({1}, {3}));
    d.initializer("hundred", test::f32({1}, {100}));
    d.node("Shape", {"present_0"}, {"present_shape"});
    d.node("Gather", {"present_shape", "i3"}, {"cached"});
    d.node("Shape", {"attention_mask"}, {"mask_shape"});
    d.node("Gather", {"mask_shape", "i1"}, {"total"});
    d.node("Sub", {"cached", "total"}, {"gap"});
    d.node("Cast", {"gap"}, {"gap_f"});
    test::set_int(d.graph_node_last(), "to", static_cast<int64_t>(ElemType::Float));
    d.node("Mul", {"gap_f", "hundred"}, {"offset"});
    d.node("Add", {"table_logits", "offset"}, {"logits"});
  }
  return d;
}

struct GreedyModel {
  GraphBuilder g{"main"};
  // Inputs in ORT's order; "" leaves one out.
  explicit GreedyModel(const std::vector<std::string>& inputs,
                       const GraphBuilder& decoder = table_decoder()) {
    for (const auto& name : inputs) {
      if (name.empty()) continue;
      const ElemType t = name == "repetition_penalty" ? ElemType::Float : ElemType::Int32;
      g.input(name, t, {}, false);
    }
    g.output_untyped("sequences");
    auto& n = g.node("GreedySearch", inputs, {"sequences"}, "greedy");
    n.set_domain("com.microsoft");
    test::set_graph(n, "decoder", decoder);
    test::set_int(n, "eos_token_id", 4);
    test::set_int(n, "pad_token_id", 5);
  }
  std::string save(const std::string& dir) { return test::save_ms_model(g, dir); }
};

std::vector<int32_t> generate(const std::string& dir, const NamedValues& feeds,
                              const std::vector<std::string>& inputs) {
  GreedyModel m(inputs);
  Session s(Model::load(m.save(dir)));
  return ints_of(s.run(feeds)[0].second.tensor());
}

// Row 0 from 1: 1 -> 2 -> 3 -> eos, written as pad, and pad after it; row 1 from 0 stays
// on 0 until max_length. The past the decoder sees always holds every earlier step (else
// the logits would move by 100 and the picks change).
TEST(GreedySearch, FollowsTheTableAndPadsFromEos) {
  const auto got =
      generate("greedy_table", {{"input_ids", i32({2, 1}, {1, 0})}, {"max_length", i32({1}, {5})}},
               {"input_ids", "max_length"});
  EXPECT_EQ(got, (std::vector<int32_t>{1, 2, 3, 5, 5, /**/ 0, 0, 0, 0, 0}));
}

// The prompt's last token picks: [3, 1] goes on from 1 (3 would give eos at once).
TEST(GreedySearch, LongerPromptContinuesFromItsLastToken) {
  const auto got =
      generate("greedy_prompt", {{"input_ids", i32({1, 2}, {3, 1})}, {"max_length", i32({1}, {4})}},
               {"input_ids", "max_length"});
  EXPECT_EQ(got, (std::vector<int32_t>{3, 1, 2, 3}));
}

// Stopping early: every row has met eos after 3 steps, so the 8 columns end in pads.
TEST(GreedySearch, EosEndsEveryRowBeforeMaxLength) {
  const auto got =
      generate("greedy_eos", {{"input_ids", i32({2, 1}, {1, 3})}, {"max_length", i32({1}, {8})}},
               {"input_ids", "max_length"});
  EXPECT_EQ(got, (std::vector<int32_t>{1, 2, 3, 5, 5, 5, 5, 5, /**/ 3, 5, 5, 5, 5, 5, 5, 5}));
}

// min_length 5: after [1, 2, 3] (length 3) eos is barred, so row 3's second best, 1, follows;
// then 2 and 3 again (length 5 reached, eos allowed, but max_length 6 ends it).
TEST(GreedySearch, MinLengthHoldsEosBack) {
  const auto got = generate("greedy_min_length",
                            {{"input_ids", i32({1, 1}, {1})},
                             {"max_length", i32({1}, {6})},
                             {"min_length", i32({1}, {5})}},
                            {"input_ids", "max_length", "min_length"});
  EXPECT_EQ(got, (std::vector<int32_t>{1, 2, 3, 1, 2, 3}));
}

// repetition_penalty 3 from [0]: token 0's score 2 becomes 2/3 < 1, so 2 is picked; then
// from 2, tokens 0 and 2 (scores 0) stay 0 and 3 wins; from 3, eos (2) beats 1.
TEST(GreedySearch, RepetitionPenaltyChangesThePick) {
  const auto got = generate("greedy_penalty",
                            {{"input_ids", i32({1, 1}, {0})},
                             {"max_length", i32({1}, {4})},
                             {"min_length", i32({1}, {0})},
                             {"repetition_penalty", test::f32({1}, {3})}},
                            {"input_ids", "max_length", "min_length", "repetition_penalty"});
  EXPECT_EQ(got, (std::vector<int32_t>{0, 2, 3, 5}));
  // Without the penalty 0 repeats.
  const auto plain = generate("greedy_no_penalty",
                              {{"input_ids", i32({1, 1}, {0})}, {"max_length", i32({1}, {4})}},
                              {"input_ids", "max_length"});
  EXPECT_EQ(plain, (std::vector<int32_t>{0, 0, 0, 0}));
}

// no_repeat_ngram_size 1 from [0]: 0 is barred, so 2; then 0 and 2 barred, so 3; then 0, 2
// and 3 barred and eos (2) beats 1. Size 2 from [0]: nothing to bar at length 1, so 0; after
// [0, 0] the bigram (0, 0) bars 0, so 2; no bigram starts with 2 or 3, so 3, then eos.
TEST(GreedySearch, NoRepeatNgram) {
  for (const auto& [n, want] :
       {std::pair<int64_t, std::vector<int32_t>>{1, {0, 2, 3, 5, 5, 5}}, {2, {0, 0, 2, 3, 5, 5}}}) {
    GreedyModel m({"input_ids", "max_length"});
    test::set_int(*m.g.mutable_proto().mutable_node(0), "no_repeat_ngram_size", n);
    Session s(Model::load(m.save("greedy_ngram_" + std::to_string(n))));
    EXPECT_EQ(ints_of(s.run({{"input_ids", i32({1, 1}, {0})}, {"max_length", i32({1}, {6})}})[0]
                          .second.tensor()),
              want)
        << "no_repeat_ngram_size " << n;
  }
}

// The penalty by hand, each seen token once: -2 (seen) * 2 = -4, 3 (seen twice) / 2 = 1.5,
// 1 (not seen) stays; then 1.5 still beats 1. min_length 4 over a sequence of 3 bars eos 2.
TEST(GreedySearch, PenaltyMultipliesNegativeAndDividesPositiveScores) {
  std::vector<float> scores = {-2, 3, 1};
  const std::vector<int32_t> sequence = {0, 1, 1};
  ops::ScoreRules rules;
  rules.repetition_penalty = 2;
  rules.eos_token_id = 2;
  rules.min_length = 4;
  ops::apply_score_rules(rules, scores, sequence, 0);
  EXPECT_EQ(scores[0], -4);
  EXPECT_EQ(scores[1], 1.5f);
  EXPECT_EQ(scores[2], std::numeric_limits<float>::lowest());
  EXPECT_EQ(ops::first_argmax(scores), 1);
  // Ties go to the first.
  EXPECT_EQ(ops::first_argmax(std::vector<float>{1, 5, 5}), 1);
}

// vocab_mask bars 2 everywhere: from 1, row 1's second best 3 follows, then eos.
// prefix_vocab_mask bars 2 on the first step only: 1 -> 3 -> eos likewise, but from a
// prompt of 0 (whose pick 0 it leaves) later steps are not barred.
TEST(GreedySearch, VocabMasks) {
  const auto got = generate("greedy_vocab_mask",
                            {{"input_ids", i32({1, 1}, {1})},
                             {"max_length", i32({1}, {4})},
                             {"vocab_mask", i32({6}, {1, 1, 0, 1, 1, 1})}},
                            {"input_ids", "max_length", "", "", "vocab_mask"});
  EXPECT_EQ(got, (std::vector<int32_t>{1, 3, 5, 5}));
  const auto prefix =
      generate("greedy_prefix_mask",
               {{"input_ids", i32({2, 1}, {1, 0})},
                {"max_length", i32({1}, {3})},
                {"prefix_vocab_mask", i32({2, 6}, {1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1})}},
               {"input_ids", "max_length", "", "", "", "prefix_vocab_mask"});
  EXPECT_EQ(prefix, (std::vector<int32_t>{1, 3, 5, /**/ 0, 0, 0}));
}

// A one-pad prompt [5, 1] (pad_token_id 5): its mask is [0, 1] and the positions [0, 0];
// the table ignores them, so the sequence is that of [1]; max_length not above the prompt
// is refused when run, naming the node.
TEST(GreedySearch, PaddedPromptAndBadMaxLength) {
  GreedyModel m({"input_ids", "max_length"});
  Session s(Model::load(m.save("greedy_pad")));
  EXPECT_EQ(ints_of(s.run({{"input_ids", i32({1, 2}, {5, 1})}, {"max_length", i32({1}, {4})}})[0]
                        .second.tensor()),
            (std::vector<int32_t>{5, 1, 2, 3}));
  try {
    s.run({{"input_ids", i32({1, 2}, {5, 1})}, {"max_length", i32({1}, {2})}});
    FAIL() << "max_length 2 with a prompt of 2 ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("greedy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_length (2) must exceed"), std::string::npos)
        << e.what();
  }
}

// The checker refuses a decoder without a present for its past, and one whose past does
// not declare its heads and head size.
TEST(GreedySearch, CheckerRefusesMalformedDecoders) {
  GraphBuilder no_present = table_decoder(false);
  no_present.mutable_proto().mutable_output()->RemoveLast();
  GreedyModel a({"input_ids", "max_length"}, no_present);
  const std::string path_a = a.save("greedy_no_present");
  try {
    Session s(Model::load(path_a));
    FAIL() << "a decoder without presents loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
    EXPECT_NE(std::string(e.what()).find("1 presents, it yields 1 outputs"), std::string::npos)
        << e.what();
  }
  GraphBuilder open_heads = table_decoder(false);
  auto* past = open_heads.mutable_proto().mutable_input(3)->mutable_type()->mutable_tensor_type();
  past->mutable_shape()->mutable_dim(2)->clear_dim_value();
  GreedyModel b({"input_ids", "max_length"}, open_heads);
  const std::string path_b = b.save("greedy_open_heads");
  try {
    Session s(Model::load(path_b));
    FAIL() << "a past without known heads loaded";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
    EXPECT_NE(std::string(e.what()).find("past input 0 must be declared"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace bough
