// Modes and attributes that older operator versions have and later ones removed
// (docs/older-versions.md lists them all): each runs at the version that has it, with the
// expected values worked out by hand in the comments. The normalization, dropout, resampling
// and recurrent ones are in older_versions_nn_test.cc.
#include "ops/older_versions.h"

#include <gtest/gtest.h>

#include <string>

#include "error_text.h"
#include "model_builder.h"

namespace bough::test {
namespace {

Tensor i32(Dims64 dims, std::vector<int32_t> v) {
  return Tensor::from_vector<int32_t>(ElemType::Int32, Dims(std::span<const int64_t>(dims)), v);
}

// ---------------------------------------------------------------------------------------
// Resize-11's tf_half_pixel_for_nn: x_original = (x_resized + 0.5) / scale.

TEST(OlderVersions, ResizeTfHalfPixelForNNUpsamples) {
  // Scale 2 over [10, 20]: x_original = 0.25, 0.75, 1.25, 1.75; round_prefer_floor gives
  // 0, 1, 1, 2 (clamped to 1). half_pixel would read -0.25, 0.25, 0.75, 1.25: 10 10 20 20.
  auto out = run_older(
      "Resize",
      {{"X", f32({1, 1, 1, 2}, {10, 20})},
       {"roi", f32({0}, {})},
       {"scales", f32({4}, {1, 1, 1, 2})}},
      1, [](auto& n) { set_string(n, "coordinate_transformation_mode", "tf_half_pixel_for_nn"); },
      11);
  expect_tensor(out[0], {1, 1, 1, 4}, {10, 20, 20, 20});
}

TEST(OlderVersions, ResizeTfHalfPixelForNNDownsamplesToSizes) {
  // 4 -> 2: scale 0.5, x_original = 0.5 / 0.5 = 1 and 1.5 / 0.5 = 3: elements 1 and 3.
  // (half_pixel would read 0.5 and 2.5: elements 0 and 2.)
  auto out = run_older(
      "Resize",
      {{"X", f32({1, 1, 1, 4}, {10, 20, 30, 40})},
       {"roi", f32({0}, {})},
       {"scales", f32({0}, {})},
       {"sizes", i64({4}, {1, 1, 1, 2})}},
      1, [](auto& n) { set_string(n, "coordinate_transformation_mode", "tf_half_pixel_for_nn"); },
      11);
  expect_tensor(out[0], {1, 1, 1, 2}, {20, 40});
}

TEST(OlderVersions, ResizeTfHalfPixelForNNIsRefusedFromOpset13) {
  for (int64_t opset : {13, 18, 19}) {
    expect_error_mentioning(
        [&] {
          run_older(
              "Resize",
              {{"X", f32({1, 1, 1, 2}, {10, 20})},
               {"roi", f32({0}, {})},
               {"scales", f32({4}, {1, 1, 1, 2})}},
              1,
              [](auto& n) {
                set_string(n, "coordinate_transformation_mode", "tf_half_pixel_for_nn");
              },
              opset);
        },
        "exists only in Resize-11", ErrorKind::InvalidModel);
  }
}

// The modes each Resize version knows: cubic from 11, half_pixel_symmetric from 19; any other
// text is refused, naming the attribute.
TEST(OlderVersions, ResizeModesArriveWithTheirVersions) {
  auto resize = [](int64_t opset, const char* name, const char* value) {
    const Tensor x = f32({1, 1, 1, 2}, {10, 20}), scales = f32({4}, {1, 1, 1, 1.7f});
    // Resize-10 takes (X, scales); from 11, (X, roi, scales).
    return run_older(
        "Resize",
        opset < 11 ? NamedTensors{{"X", x}, {"scales", scales}}
                   : NamedTensors{{"X", x}, {"roi", f32({0}, {})}, {"scales", scales}},
        1,
        [=](auto& n) {
          if (std::string(name) != "mode") set_string(n, "mode", "linear");
          set_string(n, name, value);
        },
        opset);
  };
  expect_error_mentioning([&] { resize(10, "mode", "cubic"); },
                          "mode must be 'nearest' or 'linear', got 'cubic'",
                          ErrorKind::InvalidModel);
  expect_error_mentioning(
      [&] { resize(18, "coordinate_transformation_mode", "half_pixel_symmetric"); },
      "coordinate_transformation_mode must be", ErrorKind::InvalidModel);
  expect_error_mentioning([&] { resize(19, "nearest_mode", "round"); }, "nearest_mode must be",
                          ErrorKind::InvalidModel);
  expect_error_mentioning([&] { resize(19, "keep_aspect_ratio_policy", "fit"); },
                          "keep_aspect_ratio_policy must be", ErrorKind::InvalidModel);
  // half_pixel_symmetric at 19, scale 1.7 over 2 elements (output width 3.4, 3 kept):
  // offset = 1 * (1 - 3 / 3.4) = 0.1176, x_original = offset + (x + 0.5) / 1.7 - 0.5 =
  // -0.088, 0.5, 1.088: 10 (clamped), 15, 20 (clamped). half_pixel would read 0.382 at x = 1.
  expect_tensor(resize(19, "coordinate_transformation_mode", "half_pixel_symmetric")[0],
                {1, 1, 1, 3}, {10, 15, 20}, 1e-4);
}

// ---------------------------------------------------------------------------------------
// Legacy broadcasting (before opset 7): `broadcast` = 1 lets B broadcast to A, aligned at
// `axis` or else at A's trailing dimensions.

void broadcast_along(onnxpb::NodeProto& n, int64_t axis) {
  set_int(n, "broadcast", 1);
  set_int(n, "axis", axis);
}

TEST(OlderVersions, AddBroadcastAlongAnAxis) {
  // A = [[1, 2, 3], [4, 5, 6]], B = [10, 20] along axis 0: row r gets B[r].
  for (int64_t opset : {1, 6}) {
    auto out = run_older(
        "Add", {{"A", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"B", f32({2}, {10, 20})}}, 1,
        [&](auto& n) {
          broadcast_along(n, 0);
          if (opset == 1) set_ints(n, "consumed_inputs", {0, 0});
        },
        opset);
    expect_tensor(out[0], {2, 3}, {11, 12, 13, 24, 25, 26});
  }
}

TEST(OlderVersions, SubAndDivBroadcastTrailing) {
  // No axis: B = [1, 2, 4] lines up with A's last dimension.
  auto sub = run_older(
      "Sub", {{"A", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"B", f32({3}, {1, 2, 4})}}, 1,
      [](auto& n) { set_int(n, "broadcast", 1); }, 6);
  expect_tensor(sub[0], {2, 3}, {0, 0, -1, 3, 3, 2});
  auto div = run_older(
      "Div", {{"A", f32({2, 3}, {1, 2, 4, 4, 6, 8})}, {"B", f32({3}, {1, 2, 4})}}, 1,
      [](auto& n) { set_int(n, "broadcast", 1); }, 6);
  expect_tensor(div[0], {2, 3}, {1, 1, 1, 4, 3, 2});
}

TEST(OlderVersions, MulAndPowBroadcastAlongTheMiddleAxis) {
  // A of shape [1, 2, 2], B = [2, 3] along axis 1: A[:, j, :] * B[j].
  auto mul = run_older(
      "Mul", {{"A", f32({1, 2, 2}, {1, 2, 3, 4})}, {"B", f32({2}, {2, 3})}}, 1,
      [](auto& n) { broadcast_along(n, 1); }, 6);
  expect_tensor(mul[0], {1, 2, 2}, {2, 4, 9, 12});
  // Pow-1: [1, 2, 3, 4] ** [2, 3] along axis 1 = [1, 4, 27, 64].
  auto pow = run_older(
      "Pow", {{"X", f32({1, 2, 2}, {1, 2, 3, 4})}, {"Y", f32({2}, {2, 3})}}, 1,
      [](auto& n) { broadcast_along(n, 1); }, 1);
  expect_tensor(pow[0], {1, 2, 2}, {1, 4, 27, 64});
}

TEST(OlderVersions, LogicalAndComparisonBroadcast) {
  // And-1: [[1, 1], [0, 1]] and [1, 0] along axis 0: row 0 with 1, row 1 with 0.
  auto a = run_older(
      "And",
      {{"A", boolean({2, 2}, {true, true, false, true})}, {"B", boolean({2}, {true, false})}}, 1,
      [](auto& n) { broadcast_along(n, 0); }, 1);
  expect_tensor(a[0], {2, 2}, {1, 1, 0, 0});
  // Greater-1: [[1, 5], [3, 2]] > [2, 4] on the trailing axis: [0, 1, 1, 0].
  auto g = run_older(
      "Greater", {{"A", f32({2, 2}, {1, 5, 3, 2})}, {"B", f32({2}, {2, 4})}}, 1,
      [](auto& n) { set_int(n, "broadcast", 1); }, 1);
  expect_tensor(g[0], {2, 2}, {0, 1, 1, 0});
}

TEST(OlderVersions, GemmBroadcastsC) {
  // Gemm-6 with broadcast = 1: A = [[1, 2], [3, 4]], B = I, C = [10, 20] added to each row.
  auto out = run_older(
      "Gemm",
      {{"A", f32({2, 2}, {1, 2, 3, 4})},
       {"B", f32({2, 2}, {1, 0, 0, 1})},
       {"C", f32({2}, {10, 20})}},
      1, [](auto& n) { set_int(n, "broadcast", 1); }, 6);
  expect_tensor(out[0], {2, 2}, {11, 22, 13, 24});
}

// ---------------------------------------------------------------------------------------
// Attributes that later became inputs.

TEST(OlderVersions, ClipTakesMinAndMaxAttributes) {
  auto both = run_older(
      "Clip", {{"x", f32({3}, {-3, 0, 5})}}, 1,
      [](auto& n) {
        set_float(n, "min", -1);
        set_float(n, "max", 2);
      },
      6);
  expect_tensor(both[0], {3}, {-1, 0, 2});
  // Clip-1 with max alone: no lower bound.
  auto max_only = run_older(
      "Clip", {{"x", f32({3}, {-3, 0, 5})}}, 1, [](auto& n) { set_float(n, "max", 2); }, 1);
  expect_tensor(max_only[0], {3}, {-3, 0, 2});
}

TEST(OlderVersions, PadOneTakesPaddingsAndTwoTakesPads) {
  // Pad-1 `paddings` [0, 1, 0, 2] (begins, then ends) around [[1, 2]], value 7.
  auto p1 = run_older(
      "Pad", {{"x", f32({1, 2}, {1, 2})}}, 1,
      [](auto& n) {
        set_ints(n, "paddings", {0, 1, 0, 2});
        set_float(n, "value", 7);
      },
      1);
  expect_tensor(p1[0], {1, 5}, {7, 1, 2, 7, 7});
  // Pad-2 `pads` [0, 2, 0, 1], reflect around [1, 2, 3]: 3 2 | 1 2 3 | 2.
  auto p2 = run_older(
      "Pad", {{"x", f32({1, 3}, {1, 2, 3})}}, 1,
      [](auto& n) {
        set_ints(n, "pads", {0, 2, 0, 1});
        set_string(n, "mode", "reflect");
      },
      2);
  expect_tensor(p2[0], {1, 6}, {3, 2, 1, 2, 3, 2});
}

TEST(OlderVersions, SliceOneTakesAttributes) {
  // x = [[0, 1, 2, 3], [4, 5, 6, 7]]; starts [1, 0], ends [2, 3] over every axis: [[4, 5, 6]].
  const Tensor x = f32({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7});
  auto all_axes = run_older(
      "Slice", {{"x", x}}, 1,
      [](auto& n) {
        set_ints(n, "starts", {1, 0});
        set_ints(n, "ends", {2, 3});
      },
      1);
  expect_tensor(all_axes[0], {1, 3}, {4, 5, 6});
  // axes [1], starts [1], ends past the end: columns 1..3.
  auto one_axis = run_older(
      "Slice", {{"x", x}}, 1,
      [](auto& n) {
        set_ints(n, "axes", {1});
        set_ints(n, "starts", {1});
        set_ints(n, "ends", {1000});
      },
      1);
  expect_tensor(one_axis[0], {2, 3}, {1, 2, 3, 5, 6, 7});
}

TEST(OlderVersions, TopKOneTakesK) {
  // The 2 largest of [3, 1, 4, 2]: 4 at 2, 3 at 0.
  auto out = run_older(
      "TopK", {{"x", f32({1, 4}, {3, 1, 4, 2})}}, 2, [](auto& n) { set_int(n, "k", 2); }, 1);
  expect_tensor(out[0], {1, 2}, {4, 3});
  expect_tensor(out[1], {1, 2}, {2, 0});
}

TEST(OlderVersions, SplitOneTakesTheSplitAsAnInputOrAttribute) {
  // Split-1's optional second input holds the lengths (in the input's type): [2, 4] of 0..5.
  const Tensor x = f32({6}, {0, 1, 2, 3, 4, 5});
  auto by_input = run_older("Split", {{"x", x}, {"split", f32({2}, {2, 4})}}, 2, nullptr, 1);
  expect_tensor(by_input[0], {2}, {0, 1});
  expect_tensor(by_input[1], {4}, {2, 3, 4, 5});
  // Split-2's `split` attribute; axis defaults to 0.
  auto by_attr = run_older(
      "Split", {{"x", x}}, 2,
      [](auto& n) {
        set_ints(n, "split", {5, 1});
      },
      2);
  expect_tensor(by_attr[0], {5}, {0, 1, 2, 3, 4});
  expect_tensor(by_attr[1], {1}, {5});
}

TEST(OlderVersions, AxesAndShapeAttributes) {
  const Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  // Reshape-1's `shape` attribute.
  auto r = run_older(
      "Reshape", {{"x", x}}, 1,
      [](auto& n) {
        set_ints(n, "shape", {3, 2});
      },
      1);
  expect_tensor(r[0], {3, 2}, {1, 2, 3, 4, 5, 6});
  // ReduceSum-1's `axes` attribute: row sums 6 and 15.
  auto s = run_older(
      "ReduceSum", {{"x", x}}, 1,
      [](auto& n) {
        set_ints(n, "axes", {1});
        set_int(n, "keepdims", 0);
      },
      1);
  expect_tensor(s[0], {2}, {6, 15});
  // Squeeze-1 and Unsqueeze-1's `axes` attributes.
  auto sq = run_older(
      "Squeeze", {{"x", f32({1, 3}, {1, 2, 3})}}, 1, [](auto& n) { set_ints(n, "axes", {0}); }, 1);
  expect_tensor(sq[0], {3}, {1, 2, 3});
  auto un = run_older(
      "Unsqueeze", {{"x", f32({3}, {1, 2, 3})}}, 1,
      [](auto& n) {
        set_ints(n, "axes", {0, 2});
      },
      1);
  expect_tensor(un[0], {1, 3, 1}, {1, 2, 3});
}

TEST(OlderVersions, TileOneTakesTilesAndAxis) {
  // Tile-1: 3 copies of [1, 2] along axis 0 (tiles and axis are inputs of the input's type).
  auto out =
      run_older("Tile", {{"x", f32({2}, {1, 2})}, {"tiles", f32({}, {3})}, {"axis", f32({}, {0})}},
                1, nullptr, 1);
  expect_tensor(out[0], {6}, {1, 2, 1, 2, 1, 2});
  expect_error_mentioning(
      [] {
        run_older("Tile",
                  {{"x", f32({2}, {1, 2})}, {"tiles", f32({}, {2.5f})}, {"axis", f32({}, {0})}}, 1,
                  nullptr, 1);
      },
      "tiles must hold whole numbers", ErrorKind::BadInput);
}

TEST(OlderVersions, CastOneNamesTheTypeByString) {
  // Cast-1's `to` is a string; float to int32 truncates toward zero.
  auto out = run_older(
      "Cast", {{"x", f32({3}, {1.7f, -2.2f, 3})}}, 1, [](auto& n) { set_string(n, "to", "INT32"); },
      1);
  EXPECT_EQ(out[0].type(), ElemType::Int32);
  expect_tensor(out[0], {3}, {1, -2, 3});
  auto back = run_older(
      "Cast", {{"x", i32({2}, {5, -1})}}, 1, [](auto& n) { set_string(n, "to", "DOUBLE"); }, 1);
  EXPECT_EQ(back[0].type(), ElemType::Double);
  expect_tensor(back[0], {2}, {5, -1});
}

TEST(OlderVersions, ConcatOneDefaultsToAxisOne) {
  auto out =
      run_older("Concat", {{"a", f32({1, 1}, {1})}, {"b", f32({1, 2}, {2, 3})}}, 1, nullptr, 1);
  expect_tensor(out[0], {1, 3}, {1, 2, 3});
}

TEST(OlderVersions, SoftmaxBeforeThirteenFlattensFromTheAxis) {
  // Softmax-1/11 on [1, 2, 2] with axis 1 normalizes over the 4 trailing elements together
  // (0.25 each for zeros); Softmax-13 over axis 1 alone (0.5 each).
  const Tensor zeros = f32({1, 2, 2}, {0, 0, 0, 0});
  for (int64_t opset : {1, 11}) {
    auto old = run_older(
        "Softmax", {{"x", zeros}}, 1, [](auto& n) { set_int(n, "axis", 1); }, opset);
    expect_tensor(old[0], {1, 2, 2}, {0.25, 0.25, 0.25, 0.25});
  }
  auto now = run_older(
      "Softmax", {{"x", zeros}}, 1, [](auto& n) { set_int(n, "axis", 1); }, 13);
  expect_tensor(now[0], {1, 2, 2}, {0.5, 0.5, 0.5, 0.5});
}

// ---------------------------------------------------------------------------------------
// consumed_inputs (version 1 of many operators): accepted, no effect. Values at x = 0.5.

TEST(OlderVersions, ConsumedInputsIsAcceptedAndIgnored) {
  struct Case {
    const char* op;
    double want;
  };
  const Case unary[] = {
      {"Abs", 0.5},
      {"Ceil", 1},
      {"Elu", 0.5},           // x > 0
      {"Exp", 1.6487212707},  // e^0.5
      {"Floor", 0},
      {"HardSigmoid", 0.6},    // 0.2 * 0.5 + 0.5
      {"LeakyRelu", 0.5},      // x > 0
      {"Log", -0.6931471806},  // ln 0.5
      {"Neg", -0.5},
      {"Reciprocal", 2},
      {"Relu", 0.5},
      {"Selu", 0.5 * 1.0507010221481},  // gamma (float 1.0507) * x for x > 0
      {"Sigmoid", 0.6224593312},        // 1 / (1 + e^-0.5)
      {"Sqrt", 0.7071067812},
      {"Tanh", 0.4621171573},
  };
  for (const Case& c : unary) {
    SCOPED_TRACE(c.op);
    auto out = run_older(
        c.op, {{"x", f32({1}, {0.5f})}}, 1, [](auto& n) { set_ints(n, "consumed_inputs", {0}); },
        1);
    expect_tensor(out[0], {1}, {c.want}, 1e-6);
  }
  // Variadic ones over [0.5] and [1.5].
  const Case variadic[] = {{"Max", 1.5}, {"Min", 0.5}, {"Mean", 1}, {"Sum", 2}};
  for (const Case& c : variadic) {
    SCOPED_TRACE(c.op);
    auto out = run_older(
        c.op, {{"a", f32({1}, {0.5f})}, {"b", f32({1}, {1.5f})}}, 1,
        [](auto& n) {
          set_ints(n, "consumed_inputs", {0, 0});
        },
        1);
    expect_tensor(out[0], {1}, {c.want});
  }
  // PRelu-1: -2 * 0.25; InstanceNormalization-1 over [1, 3]: mean 2, variance 1: [-1, 1].
  auto prelu = run_older(
      "PRelu", {{"x", f32({1}, {-2})}, {"slope", f32({1}, {0.25f})}}, 1,
      [](auto& n) {
        set_ints(n, "consumed_inputs", {0, 0});
      },
      1);
  expect_tensor(prelu[0], {1}, {-0.5});
  auto norm = run_older(
      "InstanceNormalization",
      {{"x", f32({1, 1, 2}, {1, 3})}, {"scale", f32({1}, {1})}, {"B", f32({1}, {0})}}, 1,
      [](auto& n) {
        set_ints(n, "consumed_inputs", {0, 0, 0});
        set_float(n, "epsilon", 0);
      },
      1);
  expect_tensor(norm[0], {1, 1, 2}, {-1, 1});
}

}  // namespace
}  // namespace bough::test
