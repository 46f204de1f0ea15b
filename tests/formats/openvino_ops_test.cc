// OpenVINO operators mapped to ONNX-domain ones: each model runs as read and after
// IR -> ONNX (run_ir). Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// One binary layer `type` with `data` attributes on x [2, 3] and y [y_dims].
std::string binary_net(const std::string& type, const std::string& data,
                       const std::vector<int64_t>& y_dims) {
  return test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2, 3}), {2, 3}}, {test::ov_parameter(1, "y", y_dims), y_dims}},
      type, "opset1", data, {2, 3}, "z");
}

TEST(OpenVinoOps, NumpyBroadcastAdd) {
  std::string path = test::save_ir(test::scratch_dir("ov_numpy"), "m",
                                   binary_net("Add", R"(auto_broadcast="numpy")", {3}));
  // [[1, 2, 3], [4, 5, 6]] + [10, 20, 30] row-wise
  NamedValues out =
      test::run_ir(path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({3}, {10, 20, 30})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{11, 22, 33, 14, 25, 36}));
}

TEST(OpenVinoOps, NoBroadcastMultiplyAndDefaultMode) {
  // auto_broadcast="none": same shapes, elementwise; no attribute means numpy.
  for (std::string data : {std::string(R"(auto_broadcast="none")"), std::string()}) {
    std::string path =
        test::save_ir(test::scratch_dir("ov_none"), "m", binary_net("Multiply", data, {2, 3}));
    // [1..6] * [2, 2, 2, -1, -1, -1]
    NamedValues out = test::run_ir(
        path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({2, 3}, {2, 2, 2, -1, -1, -1})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{2, 4, 6, -4, -5, -6}));
  }
}

// pdpd (OpenVINO's broadcast rules for elementwise operations): y is aligned with x from
// `axis` after its trailing 1s are dropped, then padded with 1s to x's rank.
TEST(OpenVinoOps, PdpdBroadcastWithAxis) {
  std::string path =
      test::save_ir(test::scratch_dir("ov_pdpd_axis"), "m",
                    binary_net("Subtract", R"(auto_broadcast="pdpd" axis="0")", {2}));
  // y [2] at axis 0 is [2, 1]: [[1, 2, 3] - 10, [4, 5, 6] - 20]
  NamedValues out =
      test::run_ir(path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({2}, {10, 20})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{-9, -8, -7, -16, -15, -14}));
}

TEST(OpenVinoOps, PdpdBroadcastDropsTrailingOnes) {
  std::string path =
      test::save_ir(test::scratch_dir("ov_pdpd_trailing"), "m",
                    binary_net("Subtract", R"(auto_broadcast="pdpd" axis="1")", {3, 1}));
  // y [3, 1] is [3] once its trailing 1 is dropped, at axis 1: [1, 3]; numpy alone would
  // refuse [2, 3] against [3, 1]. [[1, 2, 3] - [10, 20, 30], [4, 5, 6] - [10, 20, 30]]
  NamedValues out = test::run_ir(
      path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({3, 1}, {10, 20, 30})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{-9, -18, -27, -6, -15, -24}));
}

TEST(OpenVinoOps, PdpdBroadcastDefaultAxisAndExplicitMode) {
  // axis -1 (the default) is rank(x) - rank(y) = 1: y [3] is [1, 3], as in numpy.
  std::string path = test::save_ir(test::scratch_dir("ov_pdpd_default"), "m",
                                   binary_net("Multiply", R"(auto_broadcast="pdpd")", {3}));
  // [[1, 2, 3], [4, 5, 6]] * [1, 0, -1]
  NamedValues out =
      test::run_ir(path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({3}, {1, 0, -1})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 0, -3, 4, 0, -6}));
  // auto_broadcast="explicit" is "none": equal shapes.
  std::string same = test::save_ir(test::scratch_dir("ov_explicit"), "m",
                                   binary_net("Add", R"(auto_broadcast="explicit")", {2, 3}));
  // [1..6] + [6..1]
  NamedValues sum = test::run_ir(
      same, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({2, 3}, {6, 5, 4, 3, 2, 1})}});
  EXPECT_EQ(floats_of(sum[0].second.tensor()), (std::vector<float>{7, 7, 7, 7, 7, 7}));
}

TEST(OpenVinoOps, PdpdAxisThatDoesNotFitIsAnError) {
  Error e = test::ir_load_error("ov_pdpd_bad",
                                binary_net("Add", R"(auto_broadcast="pdpd" axis="2")", {3}));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Add \"op\" (id 2)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("axis 2"), std::string::npos) << e.what();
}

// Broadcast-3 with mode="explicit": data axis i goes to output axis axes_mapping[i], as
// OpenVINO's Broadcast-3 specification (operation specs, movement/Broadcast-3) describes it.
// .bin: 0: target_shape [3, 2] i64; 16: axes_mapping [0] i64.
std::string explicit_broadcast() {
  return test::ov_one_layer_net({{test::ov_parameter(0, "x", {3}), {3}},
                                 {test::ov_const(1, "target", {2}, "i64", 0), {2}},
                                 {test::ov_const(2, "mapping", {1}, "i64", 16), {1}}},
                                "Broadcast", "opset3", R"(mode="explicit")", {3, 2}, "y");
}

TEST(OpenVinoOps, ExplicitBroadcastPlacesAxesByMapping) {
  std::string path = test::save_ir(test::scratch_dir("ov_bcast_explicit"), "m",
                                   explicit_broadcast(), test::bytes_of<int64_t>({3, 2, 0}));
  // [1, 2, 3] on axis 0 of [3, 2]: each value repeated along axis 1. (numpy's rule would
  // align [3] with the last axis and fail.)
  NamedValues out = test::run_ir(path, {{"x", f32({3}, {1, 2, 3})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 1, 2, 2, 3, 3}));
}

TEST(OpenVinoOps, ExplicitBroadcastWithABadMappingIsAnError) {
  // axes_mapping [2] is past the 2-d output.
  Error e =
      test::ir_load_error("ov_bcast_bad", explicit_broadcast(), test::bytes_of<int64_t>({3, 2, 2}));
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Broadcast \"op\" (id 3)"), std::string::npos) << e.what();
}

TEST(OpenVinoOps, FloorModAndMod) {
  // FloorMod takes the divisor's sign, Mod the dividend's:
  // [-7, 7, -7, 7, 5, -5] by [3, -3, -3, 3, 5, 2]
  NamedValues in{{"x", f32({2, 3}, {-7, 7, -7, 7, 5, -5})},
                 {"y", f32({2, 3}, {3, -3, -3, 3, 5, 2})}};
  std::string floor_path =
      test::save_ir(test::scratch_dir("ov_floormod"), "m", binary_net("FloorMod", "", {2, 3}));
  EXPECT_EQ(floats_of(test::run_ir(floor_path, in)[0].second.tensor()),
            (std::vector<float>{2, -2, -1, 1, 0, 1}));
  std::string mod_path =
      test::save_ir(test::scratch_dir("ov_mod"), "m", binary_net("Mod", "", {2, 3}));
  EXPECT_EQ(floats_of(test::run_ir(mod_path, in)[0].second.tensor()),
            (std::vector<float>{-1, 1, -1, 1, 0, -1}));
}

TEST(OpenVinoOps, RoundHalfToEvenOnly) {
  auto round_net = [](const std::string& mode) {
    return test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, "Round", "opset5",
                                  "mode=\"" + mode + "\"", {4}, "y");
  };
  std::string path = test::save_ir(test::scratch_dir("ov_round"), "m", round_net("half_to_even"));
  // halves to the even neighbour: [0.5, 1.5, 2.5, -2.5] -> [0, 2, 2, -2]
  NamedValues out = test::run_ir(path, {{"x", f32({4}, {0.5f, 1.5f, 2.5f, -2.5f})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, 2, 2, -2}));
  Error e = test::ir_load_error("ov_round_away", round_net("half_away_from_zero"));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("Round \"op\" (id 1)"), std::string::npos) << e.what();
}

TEST(OpenVinoOps, StridedSliceWithShrinkNewAxisAndEllipsis) {
  // x [2, 3, 4] = 0 .. 23. Entries: take x[1] and drop the axis (shrink), insert an axis
  // (new), all of axis 1 (ellipsis), then axis 2 from 3 down to 0 by 2: x[1, :, [3, 1]]
  // under a new leading axis. .bin: begin [1, 0, 0, 3], end [2, 0, 0, 0], stride
  // [1, 1, 1, -2], all i64.
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2, 3, 4}), {2, 3, 4}},
       {test::ov_const(1, "begin", {4}, "i64", 0), {4}},
       {test::ov_const(2, "end", {4}, "i64", 32), {4}},
       {test::ov_const(3, "stride", {4}, "i64", 64), {4}}},
      "StridedSlice", "opset1",
      R"(begin_mask="0,0,0,0" end_mask="0,0,0,0" shrink_axis_mask="1,0,0,0" )"
      R"(new_axis_mask="0,1,0,0" ellipsis_mask="0,0,1,0")",
      {1, 3, 2}, "y");
  std::string path = test::save_ir(test::scratch_dir("ov_strided"), "m", xml,
                                   test::bytes_of<int64_t>({1, 0, 0, 3, 2, 0, 0, 0, 1, 1, 1, -2}));
  std::vector<float> x;
  for (int i = 0; i < 24; ++i) x.push_back(static_cast<float>(i));
  NamedValues out = test::run_ir(path, {{"x", f32({2, 3, 4}, x)}});
  // x[1] rows [12..15], [16..19], [20..23]; columns 3 and 1 of each
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 3, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{15, 13, 19, 17, 23, 21}));
}

// Gather-8 with batch_dims (OpenVINO's Gather-8 specification, movement/Gather-8): data
// [2, 3, 2] = 0..11 and int64 indices [2, 2] whose first axis pairs with data's; the axis
// is a Const i64 in the .bin.
NamedValues run_batched_gather(const std::string& dir, const std::string& axis_and_batch,
                               int64_t axis, const std::vector<int64_t>& out_dims,
                               const std::vector<int64_t>& indices) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "data", {2, 3, 2}), {2, 3, 2}},
                                            {test::ov_parameter(1, "idx", {2, 2}, "i64"), {2, 2}},
                                            {test::ov_const(2, "axis", {}, "i64", 0), {}}},
                                           "Gather", "opset8", axis_and_batch, out_dims, "y");
  std::string path =
      test::save_ir(test::scratch_dir(dir), "m", xml, test::bytes_of<int64_t>({axis}));
  std::vector<float> data;
  for (int i = 0; i < 12; ++i) data.push_back(static_cast<float>(i));
  Tensor idx = Tensor::from_vector(ElemType::Int64, {2, 2}, indices);
  return test::run_ir(path, {{"data", f32({2, 3, 2}, data)}, {"idx", Value(idx)}});
}

TEST(OpenVinoOps, GatherWithBatchDimsOnTheAxisAfterTheBatch) {
  // out[i, j, :] = data[i, idx[i, j], :]; -1 counts from the end of axis 1.
  // data[0] = [[0, 1], [2, 3], [4, 5]], data[1] = [[6, 7], [8, 9], [10, 11]];
  // idx [[2, 0], [-1, 1]]: [[4, 5], [0, 1]], [[10, 11], [8, 9]].
  NamedValues out =
      run_batched_gather("ov_gather_batch", R"(batch_dims="1")", 1, {2, 2, 2}, {2, 0, -1, 1});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 5, 0, 1, 10, 11, 8, 9}));
}

TEST(OpenVinoOps, GatherWithBatchDimsOnALaterAxis) {
  // axis 2, batch_dims -1 (= 1 for indices of rank 2): out[i, m, j] = data[i, m, idx[i, j]].
  // idx [[1, 0], [1, 1]]: batch 0 swaps each row's pair, batch 1 repeats its second value.
  NamedValues out =
      run_batched_gather("ov_gather_batch_axis2", R"(batch_dims="-1")", 2, {2, 3, 2}, {1, 0, 1, 1});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{2, 3, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()),
            (std::vector<float>{1, 0, 3, 2, 5, 4, 7, 7, 9, 9, 11, 11}));
}

// Clamp-1 (activation/Clamp-1): min and max as float attributes; for an integer input min
// is rounded up and max down, per the specification's note on integral types.
TEST(OpenVinoOps, ClampFloatsAndIntegers) {
  std::string floats = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, "Clamp",
                                              "opset1", R"(min="-1" max="1.5")", {4}, "y");
  NamedValues f = test::run_ir(test::save_ir(test::scratch_dir("ov_clamp"), "m", floats),
                               {{"x", f32({4}, {-2, 0.5f, 3, -0.25f})}});
  EXPECT_EQ(floats_of(f[0].second.tensor()), (std::vector<float>{-1, 0.5f, 1.5f, -0.25f}));
  // min -2.5 rounds up to -2, max 5.5 down to 5.
  std::string ints =
      test::replaced(test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}, "i64"), {4}}},
                                            "Clamp", "opset1", R"(min="-2.5" max="5.5")", {4}, "y"),
                     R"(precision="FP32" names="y")", R"(precision="I64" names="y")");
  Tensor x = Tensor::from_vector(ElemType::Int64, {4}, std::vector<int64_t>{-3, -2, 5, 7});
  NamedValues i =
      test::run_ir(test::save_ir(test::scratch_dir("ov_clamp_int"), "m", ints), {{"x", Value(x)}});
  const Tensor& y = i[0].second.tensor();
  ASSERT_EQ(y.type(), ElemType::Int64);
  EXPECT_EQ(std::vector<int64_t>(y.data<int64_t>(), y.data<int64_t>() + 4),
            (std::vector<int64_t>{-2, -2, 5, 5}));
}

// TopK-11 (sort/top-k-11) with k 2 along axis 1 of x [2, 4] = [[3, 1, 4, 1], [5, 9, 2, 6]],
// sorted by value; stable, so the two 1s keep their order. Indices in i32 (the default).
// .bin: k = 2 (i64 scalar).
NamedValues run_top_k(const std::string& dir, const std::string& mode) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {2, 4}), {2, 4}}, {test::ov_const(1, "k", {}, "i64", 0), {}}},
      "TopK", "opset11", R"(axis="1" sort="value" stable="true" mode=")" + mode + "\"",
      std::vector<test::OvOutput>{{{2, 2}, "values"}, {{2, 2}, "indices"}});
  xml = test::replaced(xml, R"(precision="FP32" names="indices")",
                       R"(precision="I32" names="indices")");
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, test::bytes_of<int64_t>({2}));
  return test::run_ir(path, {{"x", f32({2, 4}, {3, 1, 4, 1, 5, 9, 2, 6})}});
}

std::vector<int64_t> i32s(const Tensor& t) {
  EXPECT_EQ(t.type(), ElemType::Int32);
  return std::vector<int64_t>(t.data<int32_t>(), t.data<int32_t>() + t.numel());
}

TEST(OpenVinoOps, TopKLargestAndSmallest) {
  NamedValues max = run_top_k("ov_topk_max", "max");
  EXPECT_EQ(floats_of(max[0].second.tensor()), (std::vector<float>{4, 3, 9, 6}));
  EXPECT_EQ(i32s(max[1].second.tensor()), (std::vector<int64_t>{2, 0, 1, 3}));
  NamedValues min = run_top_k("ov_topk_min", "min");
  EXPECT_EQ(floats_of(min[0].second.tensor()), (std::vector<float>{1, 1, 2, 5}));
  EXPECT_EQ(i32s(min[1].second.tensor()), (std::vector<int64_t>{1, 3, 2, 0}));
}

// Pad-12 (movement/Pad-12), the examples of its specification on DATA [3, 4] = 1..12.
// .bin: pads_begin [2] i64 at 0, pads_end [2] i64 at 16, pad_value 0.5 (f32) at 32.
NamedValues run_pad(const std::string& dir, const std::string& mode,
                    const std::vector<int64_t>& pads, const std::vector<int64_t>& out_dims,
                    bool with_value = false) {
  std::vector<test::OvSource> ins{{test::ov_parameter(0, "x", {3, 4}), {3, 4}},
                                  {test::ov_const(1, "begin", {2}, "i64", 0), {2}},
                                  {test::ov_const(2, "end", {2}, "i64", 16), {2}}};
  if (with_value) ins.push_back({test::ov_const(3, "value", {}, "f32", 32), {}});
  std::string xml =
      test::ov_one_layer_net(ins, "Pad", "opset12", "pad_mode=\"" + mode + "\"", out_dims, "y");
  std::string bin =
      test::bytes_of<int64_t>({pads[0], pads[1], pads[2], pads[3]}) + test::bytes_of<float>({0.5f});
  std::vector<float> x;
  for (int i = 1; i <= 12; ++i) x.push_back(static_cast<float>(i));
  return test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml, bin),
                      {{"x", f32({3, 4}, x)}});
}

TEST(OpenVinoOps, PadConstantReflectAndCropping) {
  // pads_begin [0, 1], pads_end [2, 3]: one column before, three after, two rows after.
  NamedValues c = run_pad("ov_pad_constant", "constant", {0, 1, 2, 3}, {5, 8}, true);
  EXPECT_EQ(
      floats_of(c[0].second.tensor()),
      (std::vector<float>{.5f, 1,   2,   3,   4,   .5f, .5f, .5f, .5f, 5,   6,   7,   8,   .5f,
                          .5f, .5f, .5f, 9,   10,  11,  12,  .5f, .5f, .5f, .5f, .5f, .5f, .5f,
                          .5f, .5f, .5f, .5f, .5f, .5f, .5f, .5f, .5f, .5f, .5f, .5f}));
  NamedValues r = run_pad("ov_pad_reflect", "reflect", {0, 1, 2, 3}, {5, 8});
  EXPECT_EQ(floats_of(r[0].second.tensor()),
            (std::vector<float>{2,  1,  2,  3, 4, 3, 2, 1, 6, 5, 6, 7, 8, 7, 6, 5, 10, 9, 10, 11,
                                12, 11, 10, 9, 6, 5, 6, 7, 8, 7, 6, 5, 2, 1, 2, 3, 4,  3, 2,  1}));
  // Mixed: pads_begin [2, -1], pads_end [-1, 3]: two zero rows, the first column and last
  // row cropped, three zero columns.
  NamedValues m = run_pad("ov_pad_mixed", "constant", {2, -1, -1, 3}, {4, 6});
  EXPECT_EQ(
      floats_of(m[0].second.tensor()),
      (std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 4, 0, 0, 0, 6, 7, 8, 0, 0, 0}));
}

TEST(OpenVinoOps, PadModesWithoutAnOnnxFormAreRefused) {
  for (const auto& [mode, pads] :
       {std::pair<std::string, std::vector<int64_t>>{"symmetric", {0, 1, 2, 3}},
        {"edge", {2, -1, -1, 3}}}) {
    std::string xml =
        test::ov_one_layer_net({{test::ov_parameter(0, "x", {3, 4}), {3, 4}},
                                {test::ov_const(1, "begin", {2}, "i64", 0), {2}},
                                {test::ov_const(2, "end", {2}, "i64", 16), {2}}},
                               "Pad", "opset12", "pad_mode=\"" + mode + "\"", {4, 6}, "y");
    Error e = test::ir_load_error("ov_pad_" + mode, xml,
                                  test::bytes_of<int64_t>({pads[0], pads[1], pads[2], pads[3]}));
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    EXPECT_NE(e.where().find("Pad \"op\" (id 3)"), std::string::npos) << e.what();
  }
}

// HSwish-4, Mish-4 and SoftSign-9 (activation/HSwish-4, Mish-4, SoftSign-9) are ONNX's
// HardSwish, Mish and Softsign. On x = [-4, -1, 0, 2]:
// HSwish x * min(max(x + 3, 0), 6) / 6 = [0, -1/3, 0, 5/3];
// Mish x * tanh(softplus(x)) = [-0.0725917, -0.3034015, 0, 1.9439590];
// SoftSign x / (1 + |x|) = [-0.8, -0.5, 0, 2/3].
TEST(OpenVinoOps, HSwishMishAndSoftSign) {
  const std::vector<std::pair<std::string, std::vector<float>>> cases{
      {"HSwish", {0, -1.0f / 3, 0, 5.0f / 3}},
      {"Mish", {-0.0725917f, -0.3034015f, 0, 1.9439590f}},
      {"SoftSign", {-0.8f, -0.5f, 0, 2.0f / 3}}};
  for (const auto& [type, want] : cases) {
    std::string xml =
        test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, type,
                               type == "SoftSign" ? "opset9" : "opset4", "", {4}, "y");
    NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_" + type), "m", xml),
                                   {{"x", f32({4}, {-4, -1, 0, 2})}});
    std::vector<float> got = floats_of(out[0].second.tensor());
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5f) << type << " " << i;
  }
}

// Tile-1 (movement/Tile-1): x [2, 2] = [[1, 2], [3, 4]] repeated [1, 2] times, and refused
// where repeats is shorter than x's rank (OpenVINO pads it with 1s, ONNX does not).
// .bin: repeats i64.
TEST(OpenVinoOps, TileRepeatsEachAxis) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {2, 2}), {2, 2}},
                                            {test::ov_const(1, "repeats", {2}, "i64", 0), {2}}},
                                           "Tile", "opset1", "", {2, 4}, "y");
  NamedValues out = test::run_ir(
      test::save_ir(test::scratch_dir("ov_tile"), "m", xml, test::bytes_of<int64_t>({1, 2})),
      {{"x", f32({2, 2}, {1, 2, 3, 4})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4}));
  std::string short_repeats =
      test::ov_one_layer_net({{test::ov_parameter(0, "x", {2, 2}), {2, 2}},
                              {test::ov_const(1, "repeats", {1}, "i64", 0), {1}}},
                             "Tile", "opset1", "", {2, 4}, "y");
  Error e = test::ir_load_error("ov_tile_short", short_repeats, test::bytes_of<int64_t>({2}));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("Tile \"op\" (id 2)"), std::string::npos) << e.what();
}

// CumSum-3 (arithmetic/cumsum-3), the examples of its specification on [1, 2, 3, 4, 5]:
// each mode of exclusive and reverse, with the axis input (a Const 0) or without it.
TEST(OpenVinoOps, CumSumModes) {
  struct Case {
    const char* data;
    std::vector<float> want;
  };
  const Case cases[] = {{R"(exclusive="false" reverse="false")", {1, 3, 6, 10, 15}},
                        {R"(exclusive="true" reverse="false")", {0, 1, 3, 6, 10}},
                        {R"(exclusive="false" reverse="true")", {15, 14, 12, 9, 5}},
                        {R"(exclusive="true" reverse="true")", {14, 12, 9, 5, 0}}};
  for (bool with_axis : {true, false}) {
    for (const Case& c : cases) {
      std::vector<test::OvSource> ins{{test::ov_parameter(0, "x", {5}), {5}}};
      if (with_axis) ins.push_back({test::ov_const(1, "axis", {}, "i64", 0), {}});
      std::string path =
          test::save_ir(test::scratch_dir("ov_cumsum"), "m",
                        test::ov_one_layer_net(ins, "CumSum", "opset3", c.data, {5}, "y"),
                        with_axis ? test::bytes_of<int64_t>({0}) : "");
      NamedValues out = test::run_ir(path, {{"x", f32({5}, {1, 2, 3, 4, 5})}});
      EXPECT_EQ(floats_of(out[0].second.tensor()), c.want) << c.data << " axis " << with_axis;
    }
  }
}

// x = [[1, 2, 3], [4, 5, 6], [7, 8, 9]] as [1, 1, 3, 3], through one windowed layer.
NamedValues run_window(const std::string& dir, const std::string& xml,
                       const std::string& weights = "") {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, weights);
  return test::run_ir(path, {{"x", f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}});
}

TEST(OpenVinoOps, ConvolutionAndPooling) {
  // A 2x2 kernel of ones, stride 1, no padding: the sums of the four 2x2 windows.
  std::string conv = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 1, 3, 3}), {1, 1, 3, 3}},
       {test::ov_const(1, "w", {1, 1, 2, 2}, "f32", 0), {1, 1, 2, 2}}},
      "Convolution", "opset1",
      R"(strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit")",
      {1, 1, 2, 2}, "y");
  NamedValues c = run_window("ov_conv", conv, test::bytes_of<float>({1, 1, 1, 1}));
  EXPECT_EQ(floats_of(c[0].second.tensor()), (std::vector<float>{12, 16, 24, 28}));
  // 2x2 windows, stride 2, one row and column of padding at the end: windows {1, 2, 4, 5},
  // {3, 6}, {7, 8}, {9} with the padding left out of the mean, or counted in it.
  auto pool = [](const std::string& type, const std::string& extra) {
    return test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1, 3, 3}), {1, 1, 3, 3}}}, type,
                                  "opset1",
                                  R"(kernel="2,2" strides="2,2" pads_begin="0,0" pads_end="1,1" )"
                                  R"(rounding_type="floor" auto_pad="explicit" )" +
                                      extra,
                                  {1, 1, 2, 2}, "y");
  };
  NamedValues avg = run_window("ov_avg", pool("AvgPool", R"(exclude-pad="true")"));
  EXPECT_EQ(floats_of(avg[0].second.tensor()), (std::vector<float>{3, 4.5f, 7.5f, 9}));
  NamedValues avg_pad = run_window("ov_avg_pad", pool("AvgPool", R"(exclude-pad="false")"));
  EXPECT_EQ(floats_of(avg_pad[0].second.tensor()), (std::vector<float>{3, 2.25f, 3.75f, 2.25f}));
  NamedValues max = run_window("ov_max", pool("MaxPool", ""));
  EXPECT_EQ(floats_of(max[0].second.tensor()), (std::vector<float>{5, 6, 8, 9}));
}

TEST(OpenVinoOps, MaximumAndPower) {
  std::string max_path =
      test::save_ir(test::scratch_dir("ov_max"), "m", binary_net("Maximum", "", {3}));
  // max([[1, 5, 3], [4, 2, 6]], [2, 2, 2])
  NamedValues m =
      test::run_ir(max_path, {{"x", f32({2, 3}, {1, 5, 3, 4, 2, 6})}, {"y", f32({3}, {2, 2, 2})}});
  EXPECT_EQ(floats_of(m[0].second.tensor()), (std::vector<float>{2, 5, 3, 4, 2, 6}));
  std::string pow_path =
      test::save_ir(test::scratch_dir("ov_pow"), "m", binary_net("Power", "", {3}));
  // [[1, 2, 3], [4, 5, 6]] ** [2, 1, 0]
  NamedValues p =
      test::run_ir(pow_path, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"y", f32({3}, {2, 1, 0})}});
  EXPECT_EQ(floats_of(p[0].second.tensor()), (std::vector<float>{1, 2, 1, 16, 5, 1}));
}

// MatMul with transpose_b, then Reshape with special_zero (0 keeps the dim), then
// ReduceSum over axis 1 with keep_dims. .bin: 0: w [2, 3] f32; 24: shape [0, 2, 1] i64;
// 48: axes [1] i64.
const char* kMatMul = R"(<?xml version="1.0"?>
<net name="mm" version="11">
  <layers>
    <layer id="0" name="a" type="Parameter" version="opset1">
      <data element_type="f32" shape="1,3"/>
      <output><port id="0" precision="FP32"><dim>1</dim><dim>3</dim></port></output>
    </layer>
    <layer id="1" name="w" type="Const" version="opset1">
      <data element_type="f32" shape="2,3" offset="0" size="24"/>
      <output><port id="0" precision="FP32"><dim>2</dim><dim>3</dim></port></output>
    </layer>
    <layer id="2" name="mm" type="MatMul" version="opset1">
      <data transpose_a="false" transpose_b="true"/>
      <input><port id="0"><dim>1</dim><dim>3</dim></port><port id="1"><dim>2</dim><dim>3</dim></port></input>
      <output><port id="2" precision="FP32"><dim>1</dim><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="shape" type="Const" version="opset1">
      <data element_type="i64" shape="3" offset="24" size="24"/>
      <output><port id="0" precision="I64"><dim>3</dim></port></output>
    </layer>
    <layer id="4" name="rs" type="Reshape" version="opset1">
      <data special_zero="true"/>
      <input><port id="0"><dim>1</dim><dim>2</dim></port><port id="1"><dim>3</dim></port></input>
      <output><port id="2" precision="FP32"><dim>1</dim><dim>2</dim><dim>1</dim></port></output>
    </layer>
    <layer id="5" name="axes" type="Const" version="opset1">
      <data element_type="i64" shape="1" offset="48" size="8"/>
      <output><port id="0" precision="I64"><dim>1</dim></port></output>
    </layer>
    <layer id="6" name="sum" type="ReduceSum" version="opset1">
      <data keep_dims="true"/>
      <input><port id="0"><dim>1</dim><dim>2</dim><dim>1</dim></port><port id="1"><dim>1</dim></port></input>
      <output><port id="2" precision="FP32" names="s"><dim>1</dim><dim>1</dim><dim>1</dim></port></output>
    </layer>
    <layer id="7" name="out_mm" type="Result" version="opset1">
      <input><port id="0"><dim>1</dim><dim>2</dim><dim>1</dim></port></input>
    </layer>
    <layer id="8" name="out_s" type="Result" version="opset1">
      <input><port id="0"><dim>1</dim><dim>1</dim><dim>1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="4" to-port="0"/>
    <edge from-layer="3" from-port="0" to-layer="4" to-port="1"/>
    <edge from-layer="4" from-port="2" to-layer="6" to-port="0"/>
    <edge from-layer="5" from-port="0" to-layer="6" to-port="1"/>
    <edge from-layer="4" from-port="2" to-layer="7" to-port="0"/>
    <edge from-layer="6" from-port="2" to-layer="8" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoOps, MatMulTransposeReshapeSpecialZeroReduceSum) {
  std::string bin =
      test::bytes_of<float>({1, 2, 3, 4, 5, 6}) + test::bytes_of<int64_t>({0, 2, 1, 1});
  std::string path = test::save_ir(test::scratch_dir("ov_mm"), "m", kMatMul, bin);
  // a = [[1, 1, 2]]; a @ w^T = [[1+2+6, 4+5+12]] = [[9, 21]]; reshaped to [1, 2, 1];
  // summed over axis 1 keeping it: [[[30]]]
  NamedValues out = test::run_ir(path, {{"a", f32({1, 3}, {1, 1, 2})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 2, 1}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{9, 21}));
  EXPECT_EQ(out[1].first, "s");
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{30}));
}

TEST(OpenVinoOps, DynamicRankParameter) {
  // shape="..." with no dims on the port: any rank, not a scalar.
  const char* xml = R"(<?xml version="1.0"?>
<net name="dyn" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="..."/>
      <output><port id="0" precision="FP32" names="x"/></output>
    </layer>
    <layer id="1" name="relu" type="Relu" version="opset1">
      <input><port id="0"/></input>
      <output><port id="1" precision="FP32" names="y"/></output>
    </layer>
    <layer id="2" name="out" type="Result" version="opset1"><input><port id="0"/></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";
  std::string path = test::save_ir(test::scratch_dir("ov_dyn"), "m", xml);
  // relu([[-1, 2], [3, -4]])
  NamedValues out = test::run_ir(path, {{"x", f32({2, 2}, {-1, 2, 3, -4})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, 2, 3, 0}));
}

}  // namespace
}  // namespace bough
