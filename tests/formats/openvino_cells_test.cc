// OpenVINO's recurrent cells (LSTMCell-4, GRUCell-3, RNNCell-0) mapped to ONNX-domain ops: each
// model runs as read and after IR -> ONNX (run_ir). Expected values are worked out by hand in
// the comments.
#include <gtest/gtest.h>

#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// LSTMCell-4 with hidden_size 1 on one input value, after OpenVINO's LSTMCell-4
// specification (sequence/LSTMCell-4): gates stacked f, i, c, o in W [4, 1], R [4, 1] and
// B [4]. .bin: W = [1, 2, 3, 4], R = [0.1, 0.2, 0.3, 0.4], B = [0.01, 0.02, 0.03, 0.04].
std::string lstm_cell() {
  return test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1}), {1, 1}},
                                 {test::ov_parameter(1, "h0", {1, 1}), {1, 1}},
                                 {test::ov_parameter(2, "c0", {1, 1}), {1, 1}},
                                 {test::ov_const(3, "W", {4, 1}, "f32", 0), {4, 1}},
                                 {test::ov_const(4, "R", {4, 1}, "f32", 16), {4, 1}},
                                 {test::ov_const(5, "B", {4}, "f32", 32), {4}}},
                                "LSTMCell", "opset4", R"(hidden_size="1")",
                                std::vector<test::OvOutput>{{{1, 1}, "h"}, {{1, 1}, "c"}});
}

TEST(OpenVinoCells, LstmCellGatesInOpenVinoOrder) {
  std::string path = test::save_ir(
      test::scratch_dir("ov_lstm_cell"), "m", lstm_cell(),
      test::bytes_of<float>({1, 2, 3, 4, 0.1f, 0.2f, 0.3f, 0.4f, 0.01f, 0.02f, 0.03f, 0.04f}));
  NamedValues out = test::run_ir(
      path, {{"x", f32({1, 1}, {0.5f})}, {"h0", f32({1, 1}, {0.2f})}, {"c0", f32({1, 1}, {0.3f})}});
  // x = 0.5, h = 0.2, c = 0.3: f = sigmoid(1 * 0.5 + 0.1 * 0.2 + 0.01) = sigmoid(0.53) =
  // 0.629483, i = sigmoid(1.06) = 0.742691, c~ = tanh(1.59) = 0.920149, o = sigmoid(2.12) =
  // 0.892832; c' = f * 0.3 + i * c~ = 0.872231, h' = o * tanh(c') = 0.627220.
  ASSERT_EQ(out.size(), 2u);
  EXPECT_NEAR(floats_of(out[0].second.tensor())[0], 0.627220f, 1e-5f);
  EXPECT_NEAR(floats_of(out[1].second.tensor())[0], 0.872231f, 1e-5f);
}

// GRUCell-3 with hidden_size 1: gates z, r, h in W [3, 1] = [1, 2, 3], R [3, 1] =
// [0.1, 0.2, 0.3]; B [3] = [0.01, 0.02, 0.03], or with linear_before_reset B [4] adds the
// h gate's recurrent bias 0.04 apart (OpenVINO's GRUCell-3 specification).
NamedValues run_gru_cell(const std::string& dir, bool linear_before_reset) {
  const int64_t b = linear_before_reset ? 4 : 3;
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1}), {1, 1}},
                                            {test::ov_parameter(1, "h0", {1, 1}), {1, 1}},
                                            {test::ov_const(2, "W", {3, 1}, "f32", 0), {3, 1}},
                                            {test::ov_const(3, "R", {3, 1}, "f32", 12), {3, 1}},
                                            {test::ov_const(4, "B", {b}, "f32", 24), {b}}},
                                           "GRUCell", "opset3",
                                           std::string(R"(hidden_size="1" linear_before_reset=")") +
                                               (linear_before_reset ? "true" : "false") + "\"",
                                           {1, 1}, "h");
  std::string path =
      test::save_ir(test::scratch_dir(dir), "m", xml,
                    test::bytes_of<float>({1, 2, 3, 0.1f, 0.2f, 0.3f, 0.01f, 0.02f, 0.03f, 0.04f}));
  return test::run_ir(path, {{"x", f32({1, 1}, {0.5f})}, {"h0", f32({1, 1}, {0.2f})}});
}

TEST(OpenVinoCells, GruCell) {
  // x = 0.5, h = 0.2: z = sigmoid(0.5 + 0.02 + 0.01) = 0.629483, r = sigmoid(1.06) =
  // 0.742691, h~ = tanh(1.5 + 0.3 * (r * 0.2) + 0.03) = 0.917748,
  // h' = (1 - z) * h~ + z * 0.2 = 0.465938.
  EXPECT_NEAR(floats_of(run_gru_cell("ov_gru", false)[0].second.tensor())[0], 0.465938f, 1e-5f);
  // linear_before_reset: h~ = tanh(1.5 + r * (0.3 * 0.2 + 0.04) + 0.03) = 0.922309,
  // h' = 0.467628.
  EXPECT_NEAR(floats_of(run_gru_cell("ov_gru_lbr", true)[0].second.tensor())[0], 0.467628f, 1e-5f);
}

TEST(OpenVinoCells, RnnCell) {
  // h' = tanh(W x + R h + B) = tanh(2 * 0.5 + 0.5 * 0.2 + 0.1) = tanh(1.2) = 0.833655
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1}), {1, 1}},
                                            {test::ov_parameter(1, "h0", {1, 1}), {1, 1}},
                                            {test::ov_const(2, "W", {1, 1}, "f32", 0), {1, 1}},
                                            {test::ov_const(3, "R", {1, 1}, "f32", 4), {1, 1}},
                                            {test::ov_const(4, "B", {1}, "f32", 8), {1}}},
                                           "RNNCell", "opset1", R"(hidden_size="1")", {1, 1}, "h");
  std::string path = test::save_ir(test::scratch_dir("ov_rnn_cell"), "m", xml,
                                   test::bytes_of<float>({2, 0.5f, 0.1f}));
  NamedValues out = test::run_ir(path, {{"x", f32({1, 1}, {0.5f})}, {"h0", f32({1, 1}, {0.2f})}});
  EXPECT_NEAR(floats_of(out[0].second.tensor())[0], 0.833655f, 1e-5f);
}

}  // namespace
}  // namespace bough
