// Older versions of the normalization, dropout, resampling, recurrent and Scan operators
// (docs/older-versions.md): BatchNormalization's is_test and spatial, Dropout's is_test,
// Upsample's scale attributes and bilinear mode, LpPool-1's float p, GRU-1's misspelt default
// direction and Scan-8's batch axis and directions. Expected values are worked out in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "error_text.h"
#include "model_builder.h"
#include "ops/older_versions.h"

namespace bough::test {
namespace {

// ---------------------------------------------------------------------------------------
// BatchNormalization

// X of shape [1, 2, 2] (N 1, C 2, two positions) with parameters per (channel, position):
// y = scale * (x - mean) / sqrt(var + 0) + B = [1*0 + 0, 2*1 + 0, 3*2 + 0, 4*3 + 1].
NamedTensors per_position_inputs() {
  return {{"X", f32({1, 2, 2}, {1, 2, 3, 4})},
          {"scale", f32({2, 2}, {1, 2, 3, 4})},
          {"B", f32({2, 2}, {0, 0, 0, 1})},
          {"mean", f32({2, 2}, {1, 1, 1, 1})},
          {"var", f32({2, 2}, {1, 1, 1, 1})}};
}

TEST(OlderVersionsNN, BatchNormSpatialZeroHasParametersPerPosition) {
  auto v6 = run_older(
      "BatchNormalization", per_position_inputs(), 1,
      [](auto& n) {
        set_int(n, "spatial", 0);
        set_int(n, "is_test", 1);
        set_float(n, "epsilon", 0);
      },
      6);
  expect_tensor(v6[0], {1, 2, 2}, {0, 2, 6, 13});
  auto v7 = run_older(
      "BatchNormalization", per_position_inputs(), 1,
      [](auto& n) {
        set_int(n, "spatial", 0);
        set_float(n, "epsilon", 0);
      },
      7);
  expect_tensor(v7[0], {1, 2, 2}, {0, 2, 6, 13});
}

TEST(OlderVersionsNN, BatchNormSpatialOneRefusesPerPositionParameters) {
  expect_error_mentioning(
      [] {
        run_older(
            "BatchNormalization", per_position_inputs(), 1,
            [](auto& n) { set_float(n, "epsilon", 0); }, 7);
      },
      "does not match 2 channels", ErrorKind::BadInput);
}

TEST(OlderVersionsNN, BatchNormIsTestZeroNormalizesByTheBatch) {
  // BatchNormalization-1/6 default to training (is_test = 0): X = [1, 3] (N 2, C 1) has
  // batch mean 2 and biased variance 1, so y = (x - 2) / 1 = [-1, 1], whatever the given
  // mean 100 and variance 100 (which is_test = 1 uses: (x - 100) / 10).
  const NamedTensors ins = {{"X", f32({2, 1}, {1, 3})},
                            {"scale", f32({1}, {1})},
                            {"B", f32({1}, {0})},
                            {"mean", f32({1}, {100})},
                            {"var", f32({1}, {100})}};
  auto training = run_older(
      "BatchNormalization", ins, 1, [](auto& n) { set_float(n, "epsilon", 0); }, 6);
  expect_tensor(training[0], {2, 1}, {-1, 1});
  auto v1 = run_older(
      "BatchNormalization", ins, 1,
      [](auto& n) {
        set_float(n, "epsilon", 0);
        set_ints(n, "consumed_inputs", {0, 0, 0, 1, 1});
      },
      1);
  expect_tensor(v1[0], {2, 1}, {-1, 1});
  auto test = run_older(
      "BatchNormalization", ins, 1,
      [](auto& n) {
        set_float(n, "epsilon", 0);
        set_int(n, "is_test", 1);
      },
      6);
  expect_tensor(test[0], {2, 1}, {-9.9, -9.7}, 1e-5);
  // Training's running statistics: 100 * 0.9 + 2 * 0.1 = 90.2 and 100 * 0.9 + 1 * 0.1 = 90.1.
  auto stats = run_older(
      "BatchNormalization", ins, 3, [](auto& n) { set_float(n, "epsilon", 0); }, 6);
  expect_tensor(stats[1], {1}, {90.2}, 1e-4);
  expect_tensor(stats[2], {1}, {90.1}, 1e-4);
}

TEST(OlderVersionsNN, BatchNormIsTestOneRefusesStatisticsOutputs) {
  expect_error_mentioning(
      [] {
        run_older(
            "BatchNormalization", per_position_inputs(), 3,
            [](auto& n) {
              set_int(n, "is_test", 1);
              set_int(n, "spatial", 0);
            },
            6);
      },
      "is_test = 1 asks for test mode", ErrorKind::InvalidModel);
}

// ---------------------------------------------------------------------------------------
// Dropout

TEST(OlderVersionsNN, DropoutIsTestOneAndVersionsSevenToTenAreTheIdentity) {
  const Tensor x = f32({3}, {1, 2, 3});
  auto v6 = run_older(
      "Dropout", {{"x", x}}, 2, [](auto& n) { set_int(n, "is_test", 1); }, 6);
  expect_tensor(v6[0], {3}, {1, 2, 3});
  expect_tensor(v6[1], {3}, {1, 1, 1});  // a mask of X's type before opset 10
  EXPECT_EQ(v6[1].type(), ElemType::Float);
  for (int64_t opset : {7, 10}) {
    auto out = run_older(
        "Dropout", {{"x", x}}, 1, [](auto& n) { set_float(n, "ratio", 0.9f); }, opset);
    expect_tensor(out[0], {3}, {1, 2, 3});
  }
}

TEST(OlderVersionsNN, DropoutIsTestZeroDrops) {
  // Dropout-1/6 default to training: each element is 0 or x / (1 - ratio) = 4 for ratio
  // 0.75, the mask (in X's type) says which, and about a quarter are kept. With 4096
  // draws the kept fraction lies within 0.25 +- 5 standard errors (sqrt(0.25 * 0.75 /
  // 4096) = 0.0068) but with probability < 1e-6.
  const int64_t n = 4096;
  const Tensor x = f32({n}, std::vector<float>(n, 1.0f));
  for (int64_t opset : {1, 6}) {
    auto out = run_older(
        "Dropout", {{"x", x}}, 2, [](auto& a) { set_float(a, "ratio", 0.75f); }, opset);
    const std::vector<float> y = floats_of(out[0]), mask = floats_of(out[1]);
    int64_t kept = 0;
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_TRUE(y[i] == 0 || y[i] == 4) << y[i];
      EXPECT_EQ(mask[i], y[i] == 4 ? 1.0f : 0.0f);
      kept += y[i] == 4;
    }
    EXPECT_NEAR(static_cast<double>(kept) / n, 0.25, 5 * 0.0068);
  }
}

// ---------------------------------------------------------------------------------------
// Upsample (asymmetric coordinates: x_original = x / scale)

TEST(OlderVersionsNN, UpsampleOneTakesHeightAndWidthScales) {
  // Nearest, height 2 and width 3 over [[1, 2]]: each row is 1 1 1 2 2 2, twice.
  auto out = run_older(
      "Upsample", {{"X", f32({1, 1, 1, 2}, {1, 2})}}, 1,
      [](auto& n) {
        set_float(n, "height_scale", 2);
        set_float(n, "width_scale", 3);
      },
      1);
  expect_tensor(out[0], {1, 1, 2, 6}, {1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2});
}

TEST(OlderVersionsNN, UpsampleOneBilinear) {
  // Width 2 over [1, 3]: x_original = 0, 0.5, 1, 1.5 (the last clamped to 1): 1, 2, 3, 3.
  auto out = run_older(
      "Upsample", {{"X", f32({1, 1, 1, 2}, {1, 3})}}, 1,
      [](auto& n) {
        set_string(n, "mode", "bilinear");
        set_float(n, "height_scale", 1);
        set_float(n, "width_scale", 2);
      },
      1);
  expect_tensor(out[0], {1, 1, 1, 4}, {1, 2, 3, 3});
}

TEST(OlderVersionsNN, UpsampleSevenTakesTheScalesAttribute) {
  // Linear, height 2 over the column [1, 3]: 1, 2, 3, 3.
  auto out = run_older(
      "Upsample", {{"X", f32({1, 1, 2, 1}, {1, 3})}}, 1,
      [](auto& n) {
        set_string(n, "mode", "linear");
        set_floats(n, "scales", {1, 1, 2, 1});
      },
      7);
  expect_tensor(out[0], {1, 1, 4, 1}, {1, 2, 3, 3});
}

// ---------------------------------------------------------------------------------------
// LpPool-1 and GlobalLpPool-1 take p as a float: p = 1 over [-1, 3] gives |-1| + |3| = 4, p
// = 3 gives (1 + 27)^(1/3) = 3.0365890.

TEST(OlderVersionsNN, LpPoolOneTakesAFloatP) {
  const Tensor x = f32({1, 1, 2}, {-1, 3});
  auto lp = run_older(
      "LpPool", {{"x", x}}, 1,
      [](auto& n) {
        set_float(n, "p", 1);
        set_ints(n, "kernel_shape", {2});
      },
      1);
  expect_tensor(lp[0], {1, 1, 1}, {4});
  auto global = run_older(
      "GlobalLpPool", {{"x", x}}, 1, [](auto& n) { set_float(n, "p", 3); }, 1);
  expect_tensor(global[0], {1, 1, 1}, {std::cbrt(28.0)}, 1e-5);
}

// ---------------------------------------------------------------------------------------
// GRU-1: the spec's default direction is spelt "foward"; it means forward.

TEST(OlderVersionsNN, GruOneRunsForwardByDefault) {
  // hidden 1, input 1, one step from h0 = 0 with W = [z 0, r 0, h 1], R = 0:
  // z = sigmoid(0) = 0.5, h~ = tanh(1 * 1) = 0.7615942, h = (1 - z) * h~ + z * 0 = 0.3807971.
  const NamedTensors ins = {{"X", f32({1, 1, 1}, {1})},
                            {"W", f32({1, 3, 1}, {0, 0, 1})},
                            {"R", f32({1, 3, 1}, {0, 0, 0})}};
  const double h = 0.5 * std::tanh(1.0);
  for (bool spelt_out : {false, true}) {
    auto out = run_older(
        "GRU", ins, 2,
        [&](auto& n) {
          set_int(n, "hidden_size", 1);
          if (spelt_out) set_string(n, "direction", "forward");
        },
        1);
    expect_tensor(out[0], {1, 1, 1, 1}, {h});
    expect_tensor(out[1], {1, 1, 1}, {h});
  }
}

// output_sequence (RNN-1, LSTM-1; GRU-1 and 3) chose whether Y is produced: bough gives Y
// whenever it is asked for, either way. One step, hidden 1, X = 1, R = 0, h0 = c0 = 0:
// RNN with W = 1: h = tanh(1). LSTM with W = [i 0, o 0, f 0, c 1]: i = o = f = 0.5,
// c = 0.5 * tanh(1), h = 0.5 * tanh(c).

TEST(OlderVersionsNN, OutputSequenceIsAccepted) {
  const double rnn_h = std::tanh(1.0), lstm_h = 0.5 * std::tanh(0.5 * std::tanh(1.0));
  for (int64_t output_sequence : {0, 1}) {
    const Attrs attrs = [&](auto& n) {
      set_int(n, "hidden_size", 1);
      set_int(n, "output_sequence", output_sequence);
    };
    auto rnn = run_older(
        "RNN", {{"X", f32({1, 1, 1}, {1})}, {"W", f32({1, 1, 1}, {1})}, {"R", f32({1, 1, 1}, {0})}},
        2, attrs, 1);
    expect_tensor(rnn[0], {1, 1, 1, 1}, {rnn_h});
    expect_tensor(rnn[1], {1, 1, 1}, {rnn_h});
    auto lstm = run_older("LSTM",
                          {{"X", f32({1, 1, 1}, {1})},
                           {"W", f32({1, 4, 1}, {0, 0, 0, 1})},
                           {"R", f32({1, 4, 1}, {0, 0, 0, 0})}},
                          2, attrs, 1);
    expect_tensor(lstm[0], {1, 1, 1, 1}, {lstm_h});
    expect_tensor(lstm[1], {1, 1, 1}, {lstm_h});
  }
}

// ---------------------------------------------------------------------------------------
// Scan-8: axis 0 is the batch, axis 1 the sequence; `directions` reverses scan inputs.

// Body: s' = s + x, y = s'. Batch 0 scans [1, 2, 3], batch 1 [4, 5, 6], from s = 0.
GraphBuilder running_sum_body() {
  GraphBuilder body("body");
  body.input("s", ElemType::Float, {1}).input("x", ElemType::Float, {1});
  body.node("Add", {"s", "x"}, {"s_next"});
  body.node("Identity", {"s_next"}, {"y"});
  body.output("s_next", ElemType::Float, {1}).output("y", ElemType::Float, {1});
  return body;
}

std::vector<Tensor> run_scan8(const Tensor& sequence_lens, bool reverse) {
  const GraphBuilder body = running_sum_body();
  return run_older(
      "Scan",
      {{sequence_lens.defined() ? "lens" : "", sequence_lens},
       {"init", f32({2, 1}, {0, 0})},
       {"xs", f32({2, 3, 1}, {1, 2, 3, 4, 5, 6})}},
      2,
      [&](auto& n) {
        set_int(n, "num_scan_inputs", 1);
        set_graph(n, "body", body);
        if (reverse) set_ints(n, "directions", {1});
      },
      8);
}

TEST(OlderVersionsNN, ScanEightScansEachBatchEntry) {
  // Forward, y = [1, 3, 6] and [4, 9, 15]; reversed (directions [1]), y = [3, 5, 6] and
  // [6, 11, 15]. The final states are the sums, 6 and 15, either way.
  for (bool reverse : {false, true}) {
    auto out = run_scan8(Tensor(), reverse);
    expect_tensor(out[0], {2, 1}, {6, 15});
    expect_tensor(
        out[1], {2, 3, 1},
        reverse ? std::vector<double>{3, 5, 6, 6, 11, 15} : std::vector<double>{1, 3, 6, 4, 9, 15});
  }
}

TEST(OlderVersionsNN, ScanEightSequenceLensShortensAnEntry) {
  // sequence_lens [3, 2]: batch 1 scans [4, 5] alone (reversed: 5 then 4), final state 9,
  // and its scan output is padded with a zero to the length 3.
  const Tensor lens = i64({2}, {3, 2});
  auto forward = run_scan8(lens, false);
  expect_tensor(forward[0], {2, 1}, {6, 9});
  expect_tensor(forward[1], {2, 3, 1}, {1, 3, 6, 4, 9, 0});
  auto reversed = run_scan8(lens, true);
  expect_tensor(reversed[0], {2, 1}, {6, 9});
  expect_tensor(reversed[1], {2, 3, 1}, {3, 5, 6, 5, 9, 0});
  expect_error_mentioning(
      [] {
        run_scan8(i64({2}, {3, 4}), false);
      },
      "sequence_lens[1] = 4 is outside [0, 3]", ErrorKind::BadInput);
}

}  // namespace
}  // namespace bough::test
