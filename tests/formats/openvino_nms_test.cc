// NonMaxSuppression 1 to 9 (formats/openvino/ops/nms.cc) read from hand-written IR and run as
// read and after IR -> ONNX -> IR (run_ir), and ONNX's NonMaxSuppression written as NMS-9.
// Expected values are worked out by hand from OpenVINO's specifications.
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

// Four boxes [y1, x1, y2, x2] of one batch: b0 the unit square, b1 it moved 0.1 right (IoU
// with b0 0.9 / 1.1 = 0.82), b2 far away (IoU 0 with all), b3 b0 with its corners swapped
// (the same box: corners may be any diagonal).
const std::vector<float> kCorners{0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, 2, 1, 3, 1, 1, 0, 0};
// The same boxes as [x_center, y_center, width, height].
const std::vector<float> kCenters{0.5f, 0.5f, 1, 1, 0.6f, 0.5f, 1, 1,
                                  2.5f, 0.5f, 1, 1, 0.5f, 0.5f, 1, 1};
// Scores [1 batch, 2 classes, 4 boxes].
const std::vector<float> kScores{0.9f, 0.8f, 0.7f, 0.05f, 0.2f, 0.95f, 0.3f, 0.6f};

// A NonMaxSuppression of `version` on boxes and scores (Parameters) and the Consts
// max_output_boxes_per_class (i64), iou_threshold and score_threshold, and soft_nms_sigma
// (f32), the first `consts` of them from `values`; `outputs` as declared.
std::string nms_net(const std::string& version, const std::string& data, size_t consts,
                    const std::vector<test::OvOutput>& outputs) {
  std::vector<test::OvSource> sources{{test::ov_parameter(0, "boxes", {1, 4, 4}), {1, 4, 4}},
                                      {test::ov_parameter(1, "scores", {1, 2, 4}), {1, 2, 4}}};
  if (consts > 0) sources.push_back({test::ov_const(2, "max", {}, "i64", 0), {}});
  const char* names[] = {"iou", "score", "sigma"};
  for (size_t k = 1; k < consts; ++k)
    sources.push_back(
        {test::ov_const(static_cast<int>(2 + k), names[k - 1], {}, "f32", 4 + 4 * k), {}});
  return test::ov_one_layer_net(sources, "NonMaxSuppression", version, data, outputs);
}

std::string nms_bin(int64_t max, float iou, float score, float sigma) {
  return test::bytes_of<int64_t>({max}) + test::bytes_of<float>({iou, score, sigma});
}

// `xml` with output `name`'s precision FP32 made `precision`.
std::string with_precision(const std::string& xml, const std::string& name,
                           const std::string& precision) {
  return test::replaced(xml, "precision=\"FP32\" names=\"" + name + "\"",
                        "precision=\"" + precision + "\" names=\"" + name + "\"");
}

NamedValues run_nms(const std::string& dir, const std::string& xml, const std::string& bin,
                    const std::vector<float>& boxes) {
  return test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml, bin),
                      {{"boxes", f32({1, 4, 4}, boxes)}, {"scores", f32({1, 2, 4}, kScores)}});
}

// Max 2 per class, IoU 0.5, scores above 0.1. Class 0: b0 (0.9), b1 (0.8) overlaps it, b2
// (0.7); class 1: b1 (0.95), b3 (0.6) overlaps it, b2 (0.3).
const std::vector<test::OvOutput> kThreeOutputs{
    {{4, 3}, "indices"}, {{4, 3}, "selected_scores"}, {{1}, "valid"}};

TEST(OpenVinoNms, Nms9SortsAcrossClassesAndGivesScoresAndCount) {
  std::string xml =
      nms_net("opset9", R"(box_encoding="corner" output_type="i64")", 4, kThreeOutputs);
  xml = with_precision(with_precision(xml, "indices", "I64"), "valid", "I64");
  NamedValues out = run_nms("ov_nms9", xml, nms_bin(2, 0.5f, 0.1f, 0), kCorners);
  ASSERT_EQ(out.size(), 3u);
  // sort_result_descending (the default): by score over both classes.
  EXPECT_EQ(out[0].second.tensor().type(), ElemType::Int64);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(test::int64s_of(out[0].second.tensor()),
            (std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 0, 2, 0, 1, 2}));
  EXPECT_EQ(floats_of(out[1].second.tensor()),
            (std::vector<float>{0, 1, 0.95f, 0, 0, 0.9f, 0, 0, 0.7f, 0, 1, 0.3f}));
  EXPECT_EQ(test::int64s_of(out[2].second.tensor()), (std::vector<int64_t>{4}));
}

TEST(OpenVinoNms, Nms5UnsortedAsI32) {
  std::string xml =
      nms_net("opset5", R"(box_encoding="CORNER" sort_result_descending="false" output_type="i32")",
              4, kThreeOutputs);
  xml = with_precision(with_precision(xml, "indices", "I32"), "valid", "I32");
  NamedValues out = run_nms("ov_nms5", xml, nms_bin(2, 0.5f, 0.1f, 0), kCorners);
  ASSERT_EQ(out.size(), 3u);
  // Per class, by descending score: ONNX's order.
  EXPECT_EQ(out[0].second.tensor().type(), ElemType::Int32);
  EXPECT_EQ(test::int64s_of(out[0].second.tensor()),
            (std::vector<int64_t>{0, 0, 0, 0, 0, 2, 0, 1, 1, 0, 1, 2}));
  EXPECT_EQ(floats_of(out[1].second.tensor()),
            (std::vector<float>{0, 0, 0.9f, 0, 0, 0.7f, 0, 1, 0.95f, 0, 1, 0.3f}));
  EXPECT_EQ(out[2].second.tensor().type(), ElemType::Int32);
  EXPECT_EQ(test::int64s_of(out[2].second.tensor()), (std::vector<int64_t>{4}));
}

// NMS-3 with center boxes, max 10 and no iou_threshold or score_threshold inputs: OpenVINO's
// defaults are 0 for both, so any overlap suppresses and a score must exceed 0. The file
// declares OpenVINO's padded row count, min(4, 10) * 2 = 8; the output has the selected rows.
TEST(OpenVinoNms, Nms3WithDefaultThresholds) {
  std::string xml = nms_net("opset3", R"(box_encoding="center")", 1,
                            std::vector<test::OvOutput>{{{8, 3}, "indices"}});
  xml = with_precision(xml, "indices", "I64");
  const std::string path =
      test::save_ir(test::scratch_dir("ov_nms3"), "m", xml, nms_bin(10, 0, 0, 0));
  // Class 0: b0 (0.9); b1 (0.8) and b3 (-0.5) overlap it; b2's score 0 does not exceed 0.
  // Class 1: b1 (0.95); b3 (0.6) and b0 (0.2) overlap it; b2 (0.3).
  NamedValues out = test::run_ir(
      path, {{"boxes", f32({1, 4, 4}, kCenters)},
             {"scores", f32({1, 2, 4}, {0.9f, 0.8f, 0, -0.5f, 0.2f, 0.95f, 0.3f, 0.6f})}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{3, 3}));
  EXPECT_EQ(test::int64s_of(out[0].second.tensor()),
            (std::vector<int64_t>{0, 1, 1, 0, 0, 0, 0, 1, 2}));
}

TEST(OpenVinoNms, Nms1AndNms4) {
  for (const char* version : {"opset1", "opset4"}) {
    std::string xml = nms_net(version, R"(sort_result_descending="false")", 3,
                              std::vector<test::OvOutput>{{{4, 3}, "indices"}});
    xml = with_precision(xml, "indices", "I64");
    NamedValues out =
        run_nms(std::string("ov_nms_") + version, xml, nms_bin(2, 0.5f, 0, 0), kCorners);
    // score_threshold 0: as with 0.1, but b3 (0.05) now passes it; it overlaps b0 anyway.
    EXPECT_EQ(test::int64s_of(out[0].second.tensor()),
              (std::vector<int64_t>{0, 0, 0, 0, 0, 2, 0, 1, 1, 0, 1, 2}))
        << version;
  }
}

TEST(OpenVinoNms, RefusesSoftNmsAndBadAttributes) {
  auto net = [](const std::string& data) {
    return with_precision(nms_net("opset9", data, 4, kThreeOutputs), "indices", "I64");
  };
  Error soft = test::ir_load_error("ov_nms_soft", net(""), nms_bin(2, 0.5f, 0.1f, 0.5f));
  EXPECT_EQ(soft.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(soft.what()).find("Soft-NMS"), std::string::npos) << soft.what();
  const std::string bin = nms_bin(2, 0.5f, 0.1f, 0);
  EXPECT_EQ(test::ir_load_error("ov_nms_encoding", net(R"(box_encoding="polar")"), bin).kind(),
            ErrorKind::InvalidModel);
  EXPECT_EQ(test::ir_load_error("ov_nms_type", net(R"(output_type="u8")"), bin).kind(),
            ErrorKind::InvalidModel);
}

// ONNX's NonMaxSuppression with no score_threshold keeps every score, 0 and below included;
// written as NMS-9 (whose absent threshold is 0) it gets -infinity. Max 10, IoU 0.5. Class 0:
// b0 (0.9), b1 overlaps it, b2 (0 kept), b3 overlaps b0; class 1 as in kScores.
TEST(OpenVinoNms, OnnxNmsWrittenAsNms9) {
  test::GraphBuilder g;
  g.input("boxes", ElemType::Float, {1, 4, 4})
      .input("scores", ElemType::Float, {1, 2, 4})
      .output("y", ElemType::Int64, {}, false);
  g.initializer("max", test::i64({1}, {10})).initializer("iou", f32({1}, {0.5f}));
  g.node("NonMaxSuppression", {"boxes", "scores", "max", "iou"}, {"y"});
  const std::string dir = test::scratch_dir("ov_write_nms");
  const std::string path = test::save_model(test::make_model(g, 11), dir, "m.onnx");
  const NamedValues inputs{
      {"boxes", f32({1, 4, 4}, kCorners)},
      {"scores", f32({1, 2, 4}, {0.9f, 0.8f, 0, -0.5f, 0.2f, 0.95f, 0.3f, 0.6f})}};
  openvino::IrFiles files = openvino::write_ir(*onnx::read_model_file(path));
  EXPECT_NE(files.xml.find(R"(type="NonMaxSuppression" version="opset9")"), std::string::npos)
      << files.xml;
  test::expect_ov_reader_accepts(files.xml, "NMS-9");
  NamedValues out = test::run_ir(test::save_ir(dir, "m", files.xml, files.bin), inputs);
  const std::vector<int64_t> want{0, 0, 0, 0, 0, 2, 0, 1, 1, 0, 1, 2};
  EXPECT_EQ(test::int64s_of(out[0].second.tensor()), want);
  EXPECT_EQ(test::int64s_of(Session(Model::load(path)).run(inputs)[0].second.tensor()), want);
}

}  // namespace
}  // namespace bough
