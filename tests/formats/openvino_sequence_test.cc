// LSTMSequence-5 and GRUSequence-5 read from hand-written IR (OpenVINO's operation specs,
// sequence/lstm-sequence-5 and sequence/gru-sequence-5: X [batch, seq, input], states
// [batch, dirs, H], Y [batch, dirs, seq, H], gates f, i, c, o for LSTM and z, r, h for GRU).
// Each runs as read, after IR -> ONNX (ONNX's LSTM and GRU, gates restacked) and after
// IR -> ONNX -> IR (written back as the same sequences). Expected values come from a plain
// loop over the specification's equations, worked step by step in the comments.
#include <gtest/gtest.h>

#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

void expect_near(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f) << "at " << i;
}

// hidden_size 1, one input, batch 1, two steps, forward. .bin: sequence_lengths [2] i64 at 0;
// W [1, 4, 1] = [1, 2, 3, 4] at 8, R = [0.1, 0.2, 0.3, 0.4] at 24, B [1, 4] =
// [0.01, 0.02, 0.03, 0.04] at 40 (f32, gates f, i, c, o).
TEST(OpenVinoSequence, LstmSequenceTwoSteps) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 2, 1}), {1, 2, 1}},
       {test::ov_parameter(1, "h0", {1, 1, 1}), {1, 1, 1}},
       {test::ov_parameter(2, "c0", {1, 1, 1}), {1, 1, 1}},
       {test::ov_const(3, "lengths", {1}, "i64", 0), {1}},
       {test::ov_const(4, "W", {1, 4, 1}, "f32", 8), {1, 4, 1}},
       {test::ov_const(5, "R", {1, 4, 1}, "f32", 24), {1, 4, 1}},
       {test::ov_const(6, "B", {1, 4}, "f32", 40), {1, 4}}},
      "LSTMSequence", "opset5", R"(hidden_size="1" direction="forward")",
      std::vector<test::OvOutput>{{{1, 1, 2, 1}, "y"}, {{1, 1, 1}, "h"}, {{1, 1, 1}, "c"}});
  std::string path = test::save_ir(
      test::scratch_dir("ov_lstm_sequence"), "m", xml,
      test::bytes_of<int64_t>({2}) +
          test::bytes_of<float>({1, 2, 3, 4, 0.1f, 0.2f, 0.3f, 0.4f, 0.01f, 0.02f, 0.03f, 0.04f}));
  NamedValues out = test::run_ir(path, {{"x", f32({1, 2, 1}, {0.5f, -1.0f})},
                                        {"h0", f32({1, 1, 1}, {0.2f})},
                                        {"c0", f32({1, 1, 1}, {0.3f})}});
  // Step 1 (x 0.5, h 0.2, c 0.3) is the LSTMCell of openvino_ops_test: h 0.627220,
  // c 0.872231. Step 2, x = -1: f = sigmoid(-1 + 0.1 h + 0.01) = 0.283477, i =
  // sigmoid(-1.854556) = 0.135339, c~ = tanh(-2.781834) = -0.992349, o = sigmoid(-3.709112)
  // = 0.023913; c = f c + i c~ = 0.112953, h = o tanh(c) = 0.002690.
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 1, 2, 1}));
  expect_near(floats_of(out[0].second.tensor()), {0.627220f, 0.002690f});
  expect_near(floats_of(out[1].second.tensor()), {0.002690f});
  expect_near(floats_of(out[2].second.tensor()), {0.112953f});
}

// Bidirectional, batch 2 with sequence_lengths [2, 1], hidden_size 1. .bin: lengths i64 at
// 0; W [2, 3, 1] at 16: forward [1, 2, 3], reverse [-1, 0.5, 2]; R at 40: [0.1, 0.2, 0.3],
// [0.3, -0.2, 0.1]; B [2, 3] at 64: [0.01, 0.02, 0.03], [0, 0.1, -0.1].
TEST(OpenVinoSequence, GruSequenceBidirectionalWithShorterSequence) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2, 2, 1}), {2, 2, 1}},
       {test::ov_parameter(1, "h0", {2, 2, 1}), {2, 2, 1}},
       {test::ov_const(2, "lengths", {2}, "i64", 0), {2}},
       {test::ov_const(3, "W", {2, 3, 1}, "f32", 16), {2, 3, 1}},
       {test::ov_const(4, "R", {2, 3, 1}, "f32", 40), {2, 3, 1}},
       {test::ov_const(5, "B", {2, 3}, "f32", 64), {2, 3}}},
      "GRUSequence", "opset5",
      R"(hidden_size="1" direction="bidirectional" linear_before_reset="false")",
      std::vector<test::OvOutput>{{{2, 2, 2, 1}, "y"}, {{2, 2, 1}, "h"}});
  std::string path =
      test::save_ir(test::scratch_dir("ov_gru_sequence"), "m", xml,
                    test::bytes_of<int64_t>({2, 1}) +
                        test::bytes_of<float>({1, 2, 3, -1, 0.5f, 2, 0.1f, 0.2f, 0.3f, 0.3f, -0.2f,
                                               0.1f, 0.01f, 0.02f, 0.03f, 0, 0.1f, -0.1f}));
  // Batch 1's second step (7) lies past its length and is never read.
  NamedValues out = test::run_ir(path, {{"x", f32({2, 2, 1}, {0.5f, -1, 1, 7})},
                                        {"h0", f32({2, 2, 1}, {0.2f, -0.1f, 0, 0.4f})}});
  // h' = (1 - z) h~ + z h, z = sigmoid(Wz x + Rz h + bz), r = sigmoid(Wr x + Rr h + br),
  // h~ = tanh(Wh x + Rh (r h) + bh). Batch 0 forward from 0.2: x 0.5 gives 0.465938 (the
  // GRUCell of openvino_ops_test), then x -1 gives -0.585305. Batch 0 reverse from -0.1: x
  // -1 (step 2) gives -0.339335, then x 0.5 gives 0.336144. Batch 1 (one step, x 1):
  // forward from 0 gives 0.265736, reverse from 0.4 gives 0.794643; its step 2 is 0.
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{2, 2, 2, 1}));
  expect_near(floats_of(out[0].second.tensor()),
              {0.465938f, -0.585305f, 0.336144f, -0.339335f, 0.265736f, 0, 0.794643f, 0});
  expect_near(floats_of(out[1].second.tensor()), {-0.585305f, 0.336144f, 0.265736f, 0.794643f});
}

// RNNSequence-5 (sequence/rnn-sequence-5) run in reverse with relu for its activation:
// hidden_size 1, W [1, 1, 1] = 2, R = 0.5, B [1, 1] = 0.1; .bin: lengths [2] i64 at 0, then
// W, R, B (f32).
TEST(OpenVinoSequence, RnnSequenceReverseWithRelu) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 2, 1}), {1, 2, 1}},
       {test::ov_parameter(1, "h0", {1, 1, 1}), {1, 1, 1}},
       {test::ov_const(2, "lengths", {1}, "i64", 0), {1}},
       {test::ov_const(3, "W", {1, 1, 1}, "f32", 8), {1, 1, 1}},
       {test::ov_const(4, "R", {1, 1, 1}, "f32", 12), {1, 1, 1}},
       {test::ov_const(5, "B", {1, 1}, "f32", 16), {1, 1}}},
      "RNNSequence", "opset5", R"(hidden_size="1" direction="reverse" activations="relu")",
      std::vector<test::OvOutput>{{{1, 1, 2, 1}, "y"}, {{1, 1, 1}, "h"}});
  std::string path =
      test::save_ir(test::scratch_dir("ov_rnn_sequence"), "m", xml,
                    test::bytes_of<int64_t>({2}) + test::bytes_of<float>({2, 0.5f, 0.1f}));
  NamedValues out =
      test::run_ir(path, {{"x", f32({1, 2, 1}, {1, -1})}, {"h0", f32({1, 1, 1}, {0.2f})}});
  // Step 2 first: relu(2 * -1 + 0.5 * 0.2 + 0.1) = relu(-1.8) = 0; then step 1:
  // relu(2 * 1 + 0.5 * 0 + 0.1) = 2.1. Y keeps each at its own step.
  expect_near(floats_of(out[0].second.tensor()), {2.1f, 0});
  expect_near(floats_of(out[1].second.tensor()), {2.1f});
}

}  // namespace
}  // namespace bough
