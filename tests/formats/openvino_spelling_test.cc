// IR as OpenVINO writes and reads it: type names and enum attribute values in any letter
// case, MaxPool's two ceil roundings, and Clamp's bounds as OpenVINO's validation and
// reference take them. Each model runs as read and after IR -> ONNX -> IR (run_ir); expected
// values are worked out by hand from OpenVINO's rules, cited beside them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// Every occurrence of `from` in `s` replaced by `to`.
std::string all_replaced(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

std::vector<int32_t> i32s_of(const Tensor& t) {
  return std::vector<int32_t>(t.data<int32_t>(), t.data<int32_t>() + t.numel());
}

// OpenVINO's reader finds a layer's type in its opset in any letter case (OpSet's
// create_insensitive), and its serializer has written spellings such as ReLU and SoftMax.
TEST(OpenVinoSpelling, TypeNamesInAnyLetterCase) {
  for (const char* type : {"ReLU", "relu", "RELU"}) {
    std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, type,
                                             "opset1", "", {4}, "y");
    NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_relu_case"), "m", xml),
                                   {{"x", f32({4}, {-1, 2, -3, 4})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, 2, 0, 4})) << type;
  }
  // SoftMax over axis 1 of [[0, ln 3]]: [1/4, 3/4]
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 2}), {1, 2}}},
                                           "SoftMax", "opset1", R"(axis="1")", {1, 2}, "y");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_softmax_case"), "m", xml),
                                 {{"x", f32({1, 2}, {0, std::log(3.0f)})}});
  std::vector<float> y = floats_of(out[0].second.tensor());
  EXPECT_NEAR(y[0], 0.25f, 1e-6);
  EXPECT_NEAR(y[1], 0.75f, 1e-6);
}

// A 1-d MaxPool on x [1, 1, 4] with `data`, giving [1, 1, out].
std::string max_pool_net(const std::string& version, const std::string& data, int64_t in,
                         int64_t out) {
  return test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 1, in}), {1, 1, in}}}, "MaxPool",
                                version, data, {1, 1, out}, "y");
}

// OpenVINO's enum values are read in any case (EnumNames::as_enum lowers both sides).
// same_lower with kernel 2, stride 1 on 4 values pads one at the beginning:
// [pad, 1], [1, 5], [5, 3], [3, 2] -> [1, 5, 5, 3].
TEST(OpenVinoSpelling, EnumValuesInAnyLetterCase) {
  std::string xml =
      max_pool_net("opset1",
                   R"(kernel="2" strides="1" pads_begin="0" pads_end="0" auto_pad="SAME_LOWER" )"
                   R"(rounding_type="FLOOR")",
                   4, 4);
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_enum_case"), "m", xml),
                                 {{"x", f32({1, 1, 4}, {1, 5, 3, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 5, 5, 3}));
}

// OpenVINO's "ceil" rounding (pooling shape inference) is out = ceil((D + pb + pe - k) / s) + 1
// with no further check: kernel 2, stride 2, pads_end 1 on D = 4 gives ceil(3 / 2) + 1 = 3
// windows, the last starting at 4, wholly in the padding. Its reference starts each window's
// maximum at the type's lowest value, which that window keeps. ONNX's ceil_mode (and
// OpenVINO's ceil_torch) drops such a window: 2 outputs.
const char* kCeilWindow = R"(kernel="2" strides="2" pads_begin="0" pads_end="1" )";

TEST(OpenVinoSpelling, MaxPoolCeilCountsAWindowThatStartsInThePadding) {
  for (const char* version : {"opset1", "opset8"}) {
    std::string xml = max_pool_net(
        version, std::string(kCeilWindow) + R"(auto_pad="explicit" rounding_type="ceil")", 4, 3);
    NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_pool_ceil"), "m", xml),
                                   {{"x", f32({1, 1, 4}, {1, 5, 3, 2})}});
    // [1, 5] -> 5, [3, 2] -> 3, [pad, pad] -> lowest
    EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 1, 3})) << version;
    EXPECT_EQ(floats_of(out[0].second.tensor()),
              (std::vector<float>{5, 3, -std::numeric_limits<float>::max()}))
        << version;
  }
}

TEST(OpenVinoSpelling, MaxPoolCeilTorchDropsThatWindow) {
  std::string xml = max_pool_net(
      "opset14", std::string(kCeilWindow) + R"(auto_pad="explicit" rounding_type="CEIL_TORCH")", 4,
      2);
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_pool_ceil_torch"), "m", xml),
                                 {{"x", f32({1, 1, 4}, {1, 5, 3, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 3}));
}

TEST(OpenVinoSpelling, MaxPoolCeilWhereBothRulesAgreeStaysCeilMode) {
  // kernel 3, stride 2, no padding: no window can start past the data (s + pe <= k), so
  // both rules give ceil((5 - 3) / 2) + 1 = 2: [1, 5, 3] -> 5, [3, 2, 4] -> 4.
  std::string xml = max_pool_net(
      "opset1", R"(kernel="3" strides="2" pads_begin="0" pads_end="0" rounding_type="ceil")", 5, 2);
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_pool_ceil_same"), "m", xml),
                                 {{"x", f32({1, 1, 5}, {1, 5, 3, 2, 4})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 4}));
}

TEST(OpenVinoSpelling, MaxPoolCeilOfAnUnknownDimIsRefused) {
  std::string xml = max_pool_net(
      "opset1", std::string(kCeilWindow) + R"(auto_pad="explicit" rounding_type="ceil")", 4, 3);
  xml = test::replaced(xml, "<port id=\"0\"><dim>1</dim><dim>1</dim><dim>4</dim>",
                       "<port id=\"0\"><dim>1</dim><dim>1</dim><dim>-1</dim>");
  Error e = test::ir_load_error("ov_pool_ceil_dynamic", xml);
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.message().find("rounding_type ceil"), std::string::npos) << e.what();
}

// ONNX's ceil_mode is OpenVINO's ceil_torch: written as MaxPool-14 where a window could
// start in the end padding, and as MaxPool-1's ceil where none can.
TEST(OpenVinoSpelling, OnnxCeilModeIsWrittenAsCeilTorchWhereItMatters) {
  auto pool = [](const test::Dims64& pads, int64_t kernel) {
    test::GraphBuilder g;
    g.input("x", ElemType::Float, {1, 1, 4}).output("y", ElemType::Float, {}, false);
    onnxpb::NodeProto& n = g.node("MaxPool", {"x"}, {"y"});
    test::set_ints(n, "kernel_shape", {kernel});
    test::set_ints(n, "strides", {2});
    test::set_ints(n, "pads", pads);
    test::set_int(n, "ceil_mode", 1);
    std::string dir = test::scratch_dir("ov_write_ceil");
    auto model = onnx::read_model_file(test::save_model(test::make_model(g, 17), dir, "m.onnx"));
    openvino::IrFiles files = openvino::write_ir(*model);
    return std::pair{files.xml, test::save_ir(dir, "m", files.xml, files.bin)};
  };
  // pads_end 1, kernel 2: ONNX drops the window at 4 ([1, 5] -> 5, [3, 2] -> 3).
  auto [torch_xml, torch_path] = pool({0, 1}, 2);
  EXPECT_NE(torch_xml.find(R"(rounding_type="ceil_torch")"), std::string::npos) << torch_xml;
  EXPECT_NE(torch_xml.find(R"(version="opset14")"), std::string::npos);
  NamedValues out = test::run_ir(torch_path, {{"x", f32({1, 1, 4}, {1, 5, 3, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 3}));
  // No padding, kernel 2 = stride: "ceil" of MaxPool-1.
  auto [ceil_xml, ceil_path] = pool({0, 0}, 2);
  EXPECT_NE(ceil_xml.find(R"(rounding_type="ceil")"), std::string::npos) << ceil_xml;
  EXPECT_NE(ceil_xml.find(R"(type="MaxPool" version="opset1")"), std::string::npos);
}

// A Clamp of i32 x; `data` holds min and max.
std::string int_clamp_net(const std::string& data) {
  std::string xml = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, "Clamp",
                                           "opset1", data, {4}, "y");
  return all_replaced(all_replaced(xml, R"(element_type="f32")", R"(element_type="i32")"),
                      R"(precision="FP32")", R"(precision="I32")");
}

// Clamp-1's validation requires min <= max, which a NaN bound fails: OpenVINO refuses the
// layer, for every element type (issue 29: NaN was cast to int32, giving INT_MIN).
TEST(OpenVinoSpelling, ClampWithANaNBoundIsRefused) {
  for (const char* data : {R"(min="nan" max="3")", R"(min="0" max="NaN")", R"(min="4" max="3")"}) {
    Error e = test::ir_load_error("ov_clamp_nan", int_clamp_net(data));
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << data;
    EXPECT_NE(e.message().find("min must not be greater than its max"), std::string::npos)
        << e.what();
  }
  std::string floats = test::ov_one_layer_net({{test::ov_parameter(0, "x", {4}), {4}}}, "Clamp",
                                              "opset1", R"(min="nan" max="1")", {4}, "y");
  EXPECT_EQ(test::ir_load_error("ov_clamp_nan_f32", floats).kind(), ErrorKind::InvalidModel);
}

// For an integer x, OpenVINO's Clamp rounds min up and max down and saturates them to the
// type (double_to_int): min -1e10 is INT32_MIN, max 3.5 is 3.
TEST(OpenVinoSpelling, ClampBoundsPastAnIntegerTypeSaturate) {
  std::string path = test::save_ir(test::scratch_dir("ov_clamp_saturate"), "m",
                                   int_clamp_net(R"(min="-1e10" max="3.5")"));
  Tensor x = Tensor::from_vector(
      ElemType::Int32, {4}, std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -5, 3, 7});
  NamedValues out = test::run_ir(path, {{"x", Value(x)}});
  ASSERT_EQ(out[0].second.tensor().type(), ElemType::Int32);
  EXPECT_EQ(i32s_of(out[0].second.tensor()),
            (std::vector<int32_t>{std::numeric_limits<int32_t>::min(), -5, 3, 3}));
}

}  // namespace
}  // namespace bough
