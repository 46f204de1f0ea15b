// com.microsoft BeamSearch over a decoder whose logits are a fixed table of log-probabilities:
// the logits after token t are row t, ln p(next | t), so log-softmax leaves them alone and a
// beam's score is the log of the product of its steps' probabilities. Vocabulary 6,
// eos_token_id 4, pad_token_id 5:
//
//   after 0: 0 .02  1 .5   2 .4   3 .04  4 .02  5 .02
//   after 1: 0 .3   1 .1   2 .15  3 .25  4 .1   5 .1
//   after 2: 0 .02  1 .02  2 .02  3 .9   4 .02  5 .02
//   after 3: 0 .1   1 .1   2 .1   3 .1   4 .5   5 .1
//   after 4, 5: 1/6 each
//
// From the prompt [0] with 2 beams and max_length 4:
//   step 1: [0 1] .5, [0 2] .4 (the first pick, 1, is greedy's);
//   step 2: [0 2 3] .4 * .9 = .36 beats [0 1 0] .5 * .3 = .15, then [0 1 3] .125: the beams
//           are [0 2 3] and [0 1 0];
//   step 3: [0 2 3] + eos .18 is a candidate among the first 2, so [0 2 3] (length 3)
//           finishes with ln .18; the beams go on as [0 1 0 1] .075 and [0 1 0 2] .06;
//   max_length: both join the hypotheses (length 4).
// With length_penalty 1 the scores are ln .18 / 3 = -.572, ln .075 / 4 = -.648,
// ln .06 / 4 = -.703: [0 2 3] wins, the path greedy search misses. With length_penalty 2
// they are ln .18 / 9 = -.191, ln .075 / 16 = -.162, ln .06 / 16 = -.176: the longer ones win.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/model_tools.h"
#include "bough/session.h"
#include "exec/generation_models.h"
#include "ir/graph.h"
#include "ir/types.h"

namespace bough {
namespace {

using test::GraphBuilder;

constexpr int64_t kVocab = 6;
constexpr int32_t kPad = 5;

using test::i32;
using test::ints_of;

// logits = ln(table)[input_ids] (rows, steps, 6); no pasts.
GraphBuilder table_decoder() {
  const double p[kVocab][kVocab] = {{.02, .5, .4, .04, .02, .02},   //
                                    {.3, .1, .15, .25, .1, .1},     //
                                    {.02, .02, .02, .9, .02, .02},  //
                                    {.1, .1, .1, .1, .5, .1},       //
                                    {1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6},
                                    {1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6, 1. / 6}};
  std::vector<float> logs;
  for (const auto& row : p)
    for (const double x : row) logs.push_back(static_cast<float>(std::log(x)));
  GraphBuilder d("decoder");
  d.input("input_ids", ElemType::Int32, {}, false)
      .input("position_ids", ElemType::Int32, {}, false)
      .input("attention_mask", ElemType::Int32, {}, false);
  d.output_untyped("logits");
  d.initializer("table", test::f32({kVocab, kVocab}, logs));
  d.node("Gather", {"table", "input_ids"}, {"logits"});
  return d;
}

struct BeamModel {
  GraphBuilder g{"main"};
  // Inputs in ORT's order; "" leaves one out.
  // `ids_dims`: input_ids' declared shape, none when empty.
  BeamModel(const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
            test::Dims64 ids_dims = {}) {
    for (const auto& name : inputs) {
      if (name.empty()) continue;
      const bool real = name == "length_penalty" || name == "repetition_penalty";
      if (name == "input_ids" && !ids_dims.empty())
        g.input(name, ElemType::Int32, ids_dims);
      else
        g.input(name, real ? ElemType::Float : ElemType::Int32, {}, false);
    }
    for (const auto& name : outputs)
      if (!name.empty()) g.output_untyped(name);
    auto& n = g.node("BeamSearch", inputs, outputs, "beam");
    n.set_domain("com.microsoft");
    test::set_graph(n, "decoder", table_decoder());
    test::set_int(n, "eos_token_id", 4);
    test::set_int(n, "pad_token_id", kPad);
  }
  std::string save(const std::string& dir) { return test::save_ms_model(g, dir); }
};

const std::vector<std::string> kInputs = {"input_ids", "max_length",           "",
                                          "num_beams", "num_return_sequences", "length_penalty"};

NamedValues feeds(std::vector<int32_t> prompt, int32_t max_length, int32_t beams, int32_t returned,
                  float length_penalty) {
  const auto n = static_cast<int64_t>(prompt.size());
  return {{"input_ids", i32({1, n}, std::move(prompt))},
          {"max_length", i32({1}, {max_length})},
          {"num_beams", i32({1}, {beams})},
          {"num_return_sequences", i32({1}, {returned})},
          {"length_penalty", test::f32({1}, {length_penalty})}};
}

TEST(BeamSearch, TwoBeamsFindTheBetterPathGreedyMisses) {
  BeamModel m(kInputs, {"sequences", "sequences_scores"});
  Session s(Model::load(m.save("beam_table")));
  const auto out = s.run(feeds({0}, 4, 2, 2, 1.0f));
  EXPECT_EQ(out[0].second.tensor().shape(), Dims({1, 2, 4}));
  EXPECT_EQ(ints_of(out[0].second.tensor()),
            (std::vector<int32_t>{0, 2, 3, kPad, /**/ 0, 1, 0, 1}));
  const Tensor& scores = out[1].second.tensor();
  EXPECT_EQ(scores.shape(), Dims({1, 2}));
  EXPECT_NEAR(scores.data<float>()[0], std::log(.18) / 3, 1e-5);
  EXPECT_NEAR(scores.data<float>()[1], std::log(.075) / 4, 1e-5);
}

// length_penalty 2 favours the beams that ran to max_length; the third hypothesis, [0 2 3],
// is dropped from the two kept.
TEST(BeamSearch, LengthPenaltyReordersTheHypotheses) {
  BeamModel m(kInputs, {"sequences", "sequences_scores"});
  Session s(Model::load(m.save("beam_length_penalty")));
  const auto out = s.run(feeds({0}, 4, 2, 2, 2.0f));
  EXPECT_EQ(ints_of(out[0].second.tensor()), (std::vector<int32_t>{0, 1, 0, 1, /**/ 0, 1, 0, 2}));
  EXPECT_NEAR(out[1].second.tensor().data<float>()[0], std::log(.075) / 16, 1e-5);
  EXPECT_NEAR(out[1].second.tensor().data<float>()[1], std::log(.06) / 16, 1e-5);
}

// From [3] with 1 beam: eos (.5) is the best candidate, so [3] finishes with ln .5 / 1 at
// once, and one hypothesis fills the single slot. early_stopping 1 ends the entry on that
// step; without it the entry ends too, as the best candidate score (the eos's own, ln .5)
// cannot beat ln .5. Either way sequences are [3] padded.
TEST(BeamSearch, EosFinishesAHypothesisAndEarlyStoppingEnds) {
  for (const int64_t early : {0, 1}) {
    BeamModel m(kInputs, {"sequences", "sequences_scores"});
    test::set_int(*m.g.mutable_proto().mutable_node(0), "early_stopping", early);
    Session s(Model::load(m.save("beam_eos_" + std::to_string(early))));
    const auto out = s.run(feeds({3}, 5, 1, 1, 1.0f));
    EXPECT_EQ(ints_of(out[0].second.tensor()), (std::vector<int32_t>{3, kPad, kPad, kPad, kPad}))
        << "early_stopping " << early;
    EXPECT_NEAR(out[1].second.tensor().data<float>()[0], std::log(.5), 1e-5);
  }
}

// Two entries, each searched on its own: [0] as above; [2] goes 2 -> 3 (.9) -> eos (.45 in
// all), finishing [2 3] with ln .45 / 2 = -.40, better than the beams that run on to
// max_length (the best, [2 3 0 1], at ln .045 / 4 = -.78).
TEST(BeamSearch, BatchEntriesAreSearchedApart) {
  BeamModel m(kInputs, {"sequences"});
  Session s(Model::load(m.save("beam_batch")));
  NamedValues in = feeds({0}, 4, 2, 1, 1.0f);
  in[0].second = i32({2, 1}, {0, 2});
  const auto out = s.run(in);
  EXPECT_EQ(out[0].second.tensor().shape(), Dims({2, 1, 4}));
  EXPECT_EQ(ints_of(out[0].second.tensor()),
            (std::vector<int32_t>{0, 2, 3, kPad, /**/ 2, 3, kPad, kPad}));
}

// The scores output (steps, batch, beams, vocab): each step's log-probabilities plus the
// beam's running score, as the worked example above has them. Step 0: beam 1 starts at -1e9;
// step 1: [0 2] then 3 is ln(.4 * .9); step 2: [0 2 3] then eos is ln .18.
TEST(BeamSearch, ScoresOutputHoldsEachStepsCandidateScores) {
  BeamModel m(kInputs, {"sequences", "", "scores"});
  Session s(Model::load(m.save("beam_scores")));
  const auto out = s.run(feeds({0}, 4, 2, 2, 1.0f));
  const Tensor& scores = out[1].second.tensor();
  ASSERT_EQ(scores.shape(), Dims({3, 1, 2, 6}));
  const auto at = [&](int64_t step, int64_t beam, int64_t token) {
    return scores.data<float>()[(step * 2 + beam) * 6 + token];
  };
  EXPECT_NEAR(at(0, 0, 1), std::log(.5), 1e-5);
  EXPECT_NEAR(at(0, 1, 1), -1e9, 100);
  EXPECT_NEAR(at(1, 1, 3), std::log(.36), 1e-5);
  EXPECT_NEAR(at(2, 0, 4), std::log(.18), 1e-5);
}

// Inference: sequences (batch, num_return_sequences, max_length) and sequences_scores (batch,
// num_return_sequences), the sizes read from constant inputs.
TEST(BeamSearch, InfersOutputShapesFromConstantSizes) {
  BeamModel m({"input_ids"}, {"sequences", "sequences_scores"}, {3, 1});
  auto* node = m.g.mutable_proto().mutable_node(0);
  for (const char* name : {"max_length", "", "num_beams", "num_return_sequences"})
    node->add_input(name);
  m.g.initializer("max_length", i32({1}, {4}))
      .initializer("num_beams", i32({1}, {2}))
      .initializer("num_return_sequences", i32({1}, {2}));
  const Model typed = with_inferred_types(Model::load(m.save("beam_infer")));
  std::vector<std::string> types;
  for (const ir::Edge* e : typed.ir().graph->outputs) types.push_back(ir::to_string(e->type));
  EXPECT_EQ(types, (std::vector<std::string>{"tensor(int32)[3,2,4]", "tensor(float)[3,2]"}));
}

// Refused when run, naming the node: more sequences returned than beams, max_length above
// ONNX Runtime's 4096, and inputs bough does not support (decoder_input_ids, a
// logits_processor other than 0).
TEST(BeamSearch, RefusesWhatItDoesNotSupport) {
  BeamModel m(kInputs, {"sequences"});
  Session s(Model::load(m.save("beam_refuse")));
  try {
    s.run(feeds({0}, 4, 2, 3, 1.0f));
    FAIL() << "3 sequences from 2 beams ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("beam"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("num_return_sequences must be 1 to num_beams (2), got 3"),
              std::string::npos)
        << e.what();
  }
  try {
    s.run(feeds({0}, 5000, 2, 1, 1.0f));
    FAIL() << "max_length 5000 ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("max_length must be at most 4096, got 5000"),
              std::string::npos)
        << e.what();
  }
  std::vector<std::string> with_forced = kInputs;
  with_forced.insert(with_forced.end(), {"", "", "", "", "decoder_input_ids"});
  BeamModel forced(with_forced, {"sequences"});
  Session f(Model::load(forced.save("beam_forced")));
  NamedValues in = feeds({0}, 4, 2, 1, 1.0f);
  in.emplace_back("decoder_input_ids", i32({1, 1}, {0}));
  try {
    f.run(in);
    FAIL() << "decoder_input_ids ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("does not support the decoder_input_ids input"),
              std::string::npos)
        << e.what();
  }
  // logits_processor 0 is no processing: the table's result; 1 (Whisper's) is refused.
  std::vector<std::string> with_processor = kInputs;
  with_processor.insert(with_processor.end(), {"", "", "", "", "", "logits_processor"});
  BeamModel processor(with_processor, {"sequences"});
  Session q(Model::load(processor.save("beam_processor")));
  NamedValues none = feeds({0}, 4, 2, 1, 1.0f);
  none.emplace_back("logits_processor", i32({1}, {0}));
  EXPECT_EQ(ints_of(q.run(none)[0].second.tensor()), (std::vector<int32_t>{0, 2, 3, kPad}));
  none.back().second = i32({1}, {1});
  try {
    q.run(none);
    FAIL() << "logits_processor 1 ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("supports logits_processor 0 only, got 1"),
              std::string::npos)
        << e.what();
  }
}

// model_type 1 (T5; the ONNX Runtime cases in tests/peer/generation/t5_* run it): an encoder
// in ONNX Runtime's newer format (without decoder_input_ids and first logits) is refused as
// unsupported, and one without decoder_start_token_id as invalid, when the model loads.
TEST(BeamSearch, T5LayoutsBoughDoesNotTake) {
  GraphBuilder encoder("encoder");
  encoder.input("encoder_input_ids", ElemType::Int32, {}, false)
      .input("encoder_attention_mask", ElemType::Int32, {}, false)
      .output_untyped("present_key_cross_0")
      .output_untyped("present_value_cross_0");
  encoder.node("Identity", {"encoder_input_ids"}, {"present_key_cross_0"});
  encoder.node("Identity", {"encoder_attention_mask"}, {"present_value_cross_0"});
  for (const bool start : {true, false}) {
    BeamModel m(kInputs, {"sequences"});
    auto& node = *m.g.mutable_proto().mutable_node(0);
    test::set_int(node, "model_type", 1);
    test::set_graph(node, "encoder", encoder);
    if (start) test::set_int(node, "decoder_start_token_id", 0);
    const std::string path = m.save(start ? "beam_t5_new_format" : "beam_t5_no_start");
    try {
      Session s(Model::load(path));
      FAIL() << "the T5 model loaded";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), start ? ErrorKind::Unsupported : ErrorKind::InvalidModel);
      EXPECT_NE(std::string(e.what()).find(start ? "supports encoders that take encoder_input_ids"
                                                 : "needs decoder_start_token_id"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace bough
