// OneHot-1 and OneHot-16 (formats/openvino/ops/one_hot.cc) read from hand-written IR and run
// as read and after IR -> ONNX -> IR (run_ir), and ONNX's OneHot written as IR. The
// difference that matters is negative indices: OpenVINO ignores them (OneHot-1, and OneHot-16
// by default), ONNX counts them from the back. Expected values are worked out by hand.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// OneHot along axis 1 of indices [2, 3] = [[0, 3, 1], [-1, 2, -4]] with depth 3, on 5 and
// off -1: output [2, 3, 3], out[b, d, i] = 5 where indices[b, i] == d.
std::string one_hot_net(const std::string& version, const std::string& data) {
  return test::ov_one_layer_net({{test::ov_parameter(0, "i", {2, 3}, "i64"), {2, 3}},
                                 {test::ov_const(1, "depth", {}, "i64", 0), {}},
                                 {test::ov_const(2, "on", {}, "f32", 8), {}},
                                 {test::ov_const(3, "off", {}, "f32", 12), {}}},
                                "OneHot", version, data, {2, 3, 3}, "y");
}

std::vector<float> run_one_hot(const std::string& dir, const std::string& version,
                               const std::string& data) {
  const std::string bin = test::bytes_of<int64_t>({3}) + test::bytes_of<float>({5, -1});
  NamedValues out =
      test::run_ir(test::save_ir(test::scratch_dir(dir), "m", one_hot_net(version, data), bin),
                   {{"i", test::i64({2, 3}, {0, 3, 1, -1, 2, -4})}});
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{2, 3, 3}));
  return floats_of(out[0].second.tensor());
}

// Batch 0: 0 -> row 0 at i = 0, 3 is out of range, 1 -> row 1 at i = 2. Batch 1 with
// negatives ignored: only 2 -> row 2 at i = 1.
const std::vector<float> kIgnored{5,  -1, -1, -1, -1, 5,  -1, -1, -1,  // batch 0
                                  -1, -1, -1, -1, -1, -1, -1, 5,  -1};
// Batch 1 with negatives normalized: -1 -> 2 at i = 0, 2 at i = 1, -4 < -3 still out of range.
const std::vector<float> kNormalized{5,  -1, -1, -1, -1, 5,  -1, -1, -1,  // batch 0
                                     -1, -1, -1, -1, -1, -1, 5,  5,  -1};

TEST(OpenVinoOneHot, OneHot1IgnoresNegativeIndices) {
  EXPECT_EQ(run_one_hot("ov_one_hot_1", "opset1", R"(axis="1")"), kIgnored);
}

TEST(OpenVinoOneHot, OneHot16NegativeIndicesModes) {
  EXPECT_EQ(run_one_hot("ov_one_hot_16", "opset16", R"(axis="1")"), kIgnored);
  EXPECT_EQ(run_one_hot("ov_one_hot_16_ignore", "opset16",
                        R"(axis="1" negative_indices_mode="IGNORE_NEGATIVE")"),
            kIgnored);
  EXPECT_EQ(run_one_hot("ov_one_hot_16_normalize", "opset16",
                        R"(axis="-2" negative_indices_mode="normalize")"),
            kNormalized);
}

TEST(OpenVinoOneHot, RefusesABadMode) {
  const std::string bin = test::bytes_of<int64_t>({3}) + test::bytes_of<float>({5, -1});
  EXPECT_EQ(
      test::ir_load_error("ov_one_hot_mode",
                          one_hot_net("opset16", R"(axis="1" negative_indices_mode="wrap")"), bin)
          .kind(),
      ErrorKind::InvalidModel);
  EXPECT_EQ(test::ir_load_error("ov_one_hot_axis", one_hot_net("opset1", ""), bin).kind(),
            ErrorKind::InvalidModel);
}

// ONNX's OneHot of indices [0, -1, 3, -4] with depth 3 and values [0, 7]: -1 is 2, 3 and -4
// are out of range; written as IR (OneHot-16, normalize) it must give the same rows.
std::vector<float> onnx_one_hot_as_ir(const std::string& dir, bool depth_input) {
  test::GraphBuilder g;
  g.input("i", ElemType::Int64, {4}).output("y", ElemType::Float, {}, false);
  if (depth_input)
    g.input("depth", ElemType::Float, {1});
  else
    g.initializer("depth", test::i64({}, {3}));
  g.initializer("values", f32({2}, {0, 7}));
  g.node("OneHot", {"i", "depth", "values"}, {"y"});
  const std::string scratch = test::scratch_dir(dir);
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, 11), scratch, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  EXPECT_NE(files.xml.find(R"(negative_indices_mode="normalize")"), std::string::npos) << files.xml;
  NamedValues inputs{{"i", test::i64({4}, {0, -1, 3, -4})}};
  if (depth_input) inputs.push_back({"depth", f32({1}, {3})});
  NamedValues out = test::run_ir(test::save_ir(scratch, "m", files.xml, files.bin), inputs);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{4, 3}));
  return floats_of(out[0].second.tensor());
}

TEST(OpenVinoOneHot, OnnxOneHotWrittenAsOneHot16) {
  const std::vector<float> want{7, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(onnx_one_hot_as_ir("ov_write_one_hot", false), want);
  // A depth that is a float input: made a scalar and converted to the indices' type.
  EXPECT_EQ(onnx_one_hot_as_ir("ov_write_one_hot_depth", true), want);
}

TEST(OpenVinoOneHot, OnnxOneHotWithFloatIndicesIsRefused) {
  test::GraphBuilder g;
  g.input("i", ElemType::Float, {4}).output("y", ElemType::Float, {}, false);
  g.initializer("depth", test::i64({}, {3})).initializer("values", f32({2}, {0, 1}));
  g.node("OneHot", {"i", "depth", "values"}, {"y"});
  auto model = onnx::read_model_file(
      test::save_model(test::make_model(g, 11), test::scratch_dir("ov_write_one_hot_f"), "m.onnx"));
  try {
    openvino::write_ir(*model);
    ADD_FAILURE() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  }
}

}  // namespace
}  // namespace bough
