// GroupConvolution-1 and MaxPool-8 (values and indices) read from hand-written IR; each runs
// as read, after IR -> ONNX and after IR -> ONNX -> IR (run_ir), which exercises the ONNX
// Conv with `group` and MaxPool with Indices on the way back. Expected values are worked
// out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// GroupConvolution-1 (OpenVINO's operation specs, convolution/GroupConvolution-1): filter
// [GROUPS, C_OUT/GROUPS, C_IN/GROUPS, kH, kW] = [2, 2, 1, 2, 2]; the second output channel
// of each group makes the order of ONNX's merged C_OUT axis visible.
TEST(OpenVinoConvPool, GroupConvolutionKeepsEachGroupOnItsChannels) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 2, 2, 2}), {1, 2, 2, 2}},
       {test::ov_const(1, "w", {2, 2, 1, 2, 2}, "f32", 0), {2, 2, 1, 2, 2}}},
      "GroupConvolution", "opset1",
      R"(strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" auto_pad="explicit")",
      {1, 4, 1, 1}, "y");
  std::string path =
      test::save_ir(test::scratch_dir("ov_group_conv"), "m", xml,
                    test::bytes_of<float>({1, 0, 0, 1, 0, 1, 0, 0,      // group 0: outputs 0, 1
                                           1, 1, 1, 1, 0, 0, 0, -1}));  // group 1: outputs 2, 3
  // Channel 0 = [1, 2, 3, 4] meets group 0's filters only: 1 + 4 = 5 and 2; channel 1 =
  // [5, 6, 7, 8] meets group 1's: 5 + 6 + 7 + 8 = 26 and -8.
  NamedValues out = test::run_ir(path, {{"x", f32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 4, 1, 1}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 2, 26, -8}));
}

TEST(OpenVinoConvPool, GroupConvolutionNeedsAFilterOfKnownShape) {
  std::string xml =
      test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 2, 2, 2}), {1, 2, 2, 2}},
                              {test::ov_parameter(1, "w", {2, 2, 1, 2, 2}), {2, 2, 1, 2, 2}}},
                             "GroupConvolution", "opset1", R"(strides="1,1")", {1, 4, 1, 1}, "y");
  // The filter's first dim is dynamic in the file.
  xml = test::replaced(xml, "<port id=\"1\"><dim>2</dim>", "<port id=\"1\"><dim>-1</dim>");
  Error e = test::ir_load_error("ov_group_conv_dynamic", xml);
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("GroupConvolution \"op\" (id 2)"), std::string::npos) << e.what();
}

// MaxPool-8 on x [1, 2, 3, 3] = 1..18 with 2x2 windows, stride 1 (Example 7 of OpenVINO's
// MaxPool-8 specification, pooling/MaxPool-8): the values, and the indices counted from
// `axis` of the input flattened, in `index_element_type`.
std::string max_pool_8(const std::string& axis, const std::string& index_type) {
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 2, 3, 3}), {1, 2, 3, 3}}}, "MaxPool", "opset8",
      R"(strides="1,1" dilations="1,1" pads_begin="0,0" pads_end="0,0" kernel="2,2" )"
      R"(rounding_type="floor" auto_pad="explicit" axis=")" +
          axis + R"(" index_element_type=")" + index_type + "\"",
      std::vector<test::OvOutput>{{{1, 2, 2, 2}, "values"}, {{1, 2, 2, 2}, "indices"}});
  return test::replaced(
      xml, R"(precision="FP32" names="indices")",
      std::string("precision=\"") + (index_type == "i32" ? "I32" : "I64") + "\" names=\"indices\"");
}

NamedValues run_max_pool_8(const std::string& dir, const std::string& axis,
                           const std::string& index_type) {
  std::vector<float> x;
  for (int i = 1; i <= 18; ++i) x.push_back(static_cast<float>(i));
  std::string path = test::save_ir(test::scratch_dir(dir), "m", max_pool_8(axis, index_type));
  return test::run_ir(path, {{"x", f32({1, 2, 3, 3}, x)}});
}

TEST(OpenVinoConvPool, MaxPool8IndicesOverTheWholeInput) {
  NamedValues out = run_max_pool_8("ov_maxpool8_axis0", "0", "i64");
  ASSERT_EQ(out.size(), 2u);
  // Each window's maximum is its bottom-right element.
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 6, 8, 9, 14, 15, 17, 18}));
  // Flat positions in [1, 2, 3, 3]: channel 1 starts at 9.
  EXPECT_EQ(out[1].second.tensor().type(), ElemType::Int64);
  EXPECT_EQ(test::int64s_of(out[1].second.tensor()),
            (std::vector<int64_t>{4, 5, 7, 8, 13, 14, 16, 17}));
}

TEST(OpenVinoConvPool, MaxPool8IndicesFromTheSpatialAxesAsInt32) {
  // axis 2: positions within each 3x3 plane, so both channels give [4, 5, 7, 8]; and axis -2
  // is the same axis of a rank-4 input.
  for (const char* axis : {"2", "-2"}) {
    NamedValues out = run_max_pool_8("ov_maxpool8_axis2", axis, "i32");
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[1].second.tensor().type(), ElemType::Int32);
    EXPECT_EQ(test::int64s_of(out[1].second.tensor()),
              (std::vector<int64_t>{4, 5, 7, 8, 4, 5, 7, 8}));
  }
}

TEST(OpenVinoConvPool, MaxPool8WithDilationsAndPadding) {
  // Example 6 of the specification: x [1, 1, 3, 3] = 1..9, 2x2 kernel dilated by 2, one
  // pixel of padding all round: each window reads x at rows/cols {r-1, r+1}.
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "x", {1, 1, 3, 3}), {1, 1, 3, 3}}}, "MaxPool", "opset8",
      R"(strides="1,1" dilations="2,2" pads_begin="1,1" pads_end="1,1" kernel="2,2" )"
      R"(rounding_type="floor" auto_pad="explicit")",
      std::vector<test::OvOutput>{{{1, 1, 3, 3}, "values"}, {{1, 1, 3, 3}, "indices"}});
  xml = test::replaced(xml, R"(precision="FP32" names="indices")",
                       R"(precision="I64" names="indices")");
  std::string path = test::save_ir(test::scratch_dir("ov_maxpool8_dilated"), "m", xml);
  NamedValues out = test::run_ir(path, {{"x", f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 6, 5, 8, 9, 8, 5, 6, 5}));
  EXPECT_EQ(test::int64s_of(out[1].second.tensor()),
            (std::vector<int64_t>{4, 5, 4, 7, 8, 7, 4, 5, 4}));
}

}  // namespace
}  // namespace bough
