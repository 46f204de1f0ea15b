// The detection operators (formats/openvino/ops/detection.cc): PriorBox-1/8,
// PriorBoxClustered-1 and DetectionOutput-1/8 read from hand-written IR as org.openvinotoolkit
// nodes (run by src/ops/openvino/), RegionYolo-1 and ReorgYolo-1 as ONNX operators; each run
// as read and after IR -> ONNX -> IR (run_ir). Expected values are worked out by hand in the
// comments, or by a short loop written from OpenVINO's specification and reference.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

void expect_close(const Tensor& t, const std::vector<float>& want, float tol = 1e-5f) {
  const std::vector<float> got = floats_of(t);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

// A grid operator on Consts [H, W] = [2, 2] and [IH, IW] = [8, 8]; its output [2, boxes * 4].
std::string grid_net(const std::string& type, const std::string& version, const std::string& data,
                     int64_t boxes) {
  return test::ov_one_layer_net({{test::ov_const(0, "size", {2}, "i64", 0), {2}},
                                 {test::ov_const(1, "image", {2}, "i64", 16), {2}}},
                                type, version, data, {2, boxes * 4}, "priors");
}

Tensor run_grid(const std::string& dir, const std::string& xml) {
  NamedValues out = test::run_ir(
      test::save_ir(test::scratch_dir(dir), "m", xml, test::bytes_of<int64_t>({2, 2, 8, 8})), {});
  EXPECT_EQ(out.size(), 1u);
  return out[0].second.tensor();
}

// The boxes of a 2x2 grid over an 8x8 image, cell centres at (w + 0.5) * 4, each cell's boxes
// of half sizes `halves` in order, clipped to [0, 1] when `clip`; then the variances.
std::vector<float> grid_boxes(const std::vector<std::pair<float, float>>& halves, bool clip,
                              const std::vector<float>& variance) {
  std::vector<float> v;
  for (int h = 0; h < 2; ++h)
    for (int w = 0; w < 2; ++w)
      for (auto [hw, hh] : halves) {
        const float cx = (w + 0.5f) * 4, cy = (h + 0.5f) * 4;
        for (float x : {(cx - hw) / 8, (cy - hh) / 8, (cx + hw) / 8, (cy + hh) / 8})
          v.push_back(clip ? std::min(std::max(x, 0.0f), 1.0f) : x);
      }
  const size_t boxes = v.size() / 4;
  for (size_t b = 0; b < boxes; ++b)
    for (size_t j = 0; j < 4; ++j) v.push_back(variance[j]);
  return v;
}

// min_size 2, max_size 18, aspect_ratio 2 with flip: per cell the min box (half 1), the max
// box (half sqrt(2 * 18) / 2 = 3), and ratio 2 and 1/2 boxes (halves sqrt(2) x 1/sqrt(2)).
// step 0: centres at (w + 0.5) * 8 / 2; clip cuts the max box of cell (0, 0), [-1, 5] / 8,
// to [0, 0.625].
const char* kPriorBoxData =
    R"(min_size="2" max_size="18" aspect_ratio="2" flip="true" clip="true" step="0" )"
    R"(offset="0.5" variance="0.1,0.1,0.2,0.2" density="" fixed_ratio="" fixed_size="" )"
    R"(scale_all_sizes="true")";
const float kRoot2 = std::sqrt(2.0f);
const std::vector<float> kVariance{0.1f, 0.1f, 0.2f, 0.2f};

TEST(OpenVinoDetection, PriorBox8MinMaxThenRatios) {
  Tensor t = run_grid("ov_prior_box8", grid_net("PriorBox", "opset8", kPriorBoxData, 16));
  EXPECT_EQ(t.shape().vec(), (std::vector<int64_t>{2, 64}));
  const std::vector<float> want =
      grid_boxes({{1, 1}, {3, 3}, {kRoot2, 1 / kRoot2}, {1 / kRoot2, kRoot2}}, true, kVariance);
  // Cell (0, 0): min [1, 1, 3, 3] / 8, max clipped to [0, 0, 0.625, 0.625].
  EXPECT_NEAR(want[0], 0.125f, 1e-6);
  EXPECT_NEAR(want[4], 0.0f, 1e-6);
  EXPECT_NEAR(want[6], 0.625f, 1e-6);
  expect_close(t, want);
}

TEST(OpenVinoDetection, PriorBox8RatiosThenMax) {
  Tensor t = run_grid(
      "ov_prior_box8_order",
      grid_net("PriorBox", "opset8",
               std::string(kPriorBoxData) + R"( min_max_aspect_ratios_order="false")", 16));
  expect_close(
      t, grid_boxes({{1, 1}, {kRoot2, 1 / kRoot2}, {1 / kRoot2, kRoot2}, {3, 3}}, true, kVariance));
}

// PriorBox-1 has no min_max_aspect_ratios_order: min, max, ratios. Without clip the max box
// of cell (0, 0) keeps its -0.125; one variance serves all four coordinates.
TEST(OpenVinoDetection, PriorBox1) {
  std::string data = test::replaced(kPriorBoxData, R"(clip="true")", R"(clip="false")");
  data = test::replaced(data, R"(variance="0.1,0.1,0.2,0.2")", R"(variance="0.3")");
  Tensor t = run_grid("ov_prior_box1", grid_net("PriorBox", "opset1", data, 16));
  const std::vector<float> want =
      grid_boxes({{1, 1}, {3, 3}, {kRoot2, 1 / kRoot2}, {1 / kRoot2, kRoot2}}, false,
                 {0.3f, 0.3f, 0.3f, 0.3f});
  EXPECT_NEAR(want[4], -0.125f, 1e-6);
  expect_close(t, want);
}

// Widths 2 and 6, heights 6 and 2, step 0 (the image over the grid, 4); clip is the IR's
// default (true): the 6-wide box of cell (0, 0), [-1, 5] / 8, starts at 0.
TEST(OpenVinoDetection, PriorBoxClustered) {
  Tensor t = run_grid(
      "ov_prior_box_clustered",
      grid_net("PriorBoxClustered", "opset1",
               R"(width="2,6" height="6,2" offset="0.5" step="0" variance="0.1,0.1,0.2,0.2")", 8));
  EXPECT_EQ(t.shape().vec(), (std::vector<int64_t>{2, 32}));
  expect_close(t, grid_boxes({{1, 3}, {3, 1}}, true, kVariance));
}

TEST(OpenVinoDetection, RefusesAttributesOutOfRange) {
  const std::string bin = test::bytes_of<int64_t>({2, 2, 8, 8});
  Error e = test::ir_load_error(
      "ov_pbc_sizes",
      grid_net("PriorBoxClustered", "opset1", R"(width="2,6" height="6" offset="0")", 8), bin);
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(std::string(e.what()).find("doesn't match size of widths"), std::string::npos)
      << e.what();
  e = test::ir_load_error("ov_pb_variance",
                          grid_net("PriorBox", "opset8",
                                   test::replaced(kPriorBoxData, "0.1,0.1,0.2,0.2", "0.1,0.2"), 16),
                          bin);
  EXPECT_NE(std::string(e.what()).find("variance must hold 0, 1 or 4"), std::string::npos)
      << e.what();
}

// With scale_all_sizes 0, OpenVINO's PriorBox::number_of_priors counts 3 + 1 - 1 = 3 boxes a
// cell but its reference also makes the max box, 4: refused rather than run past the output.
TEST(OpenVinoDetection, PriorBoxRefusesWhatTheReferenceMiscounts) {
  const std::string data =
      test::replaced(kPriorBoxData, R"(scale_all_sizes="true")", R"(scale_all_sizes="false")");
  const std::string path = test::save_ir(test::scratch_dir("ov_pb_miscount"), "m",
                                         grid_net("PriorBox", "opset8", data, 12),
                                         test::bytes_of<int64_t>({2, 2, 8, 8}));
  try {
    Session session(Model::load(path));
    (void)session.run({});
    ADD_FAILURE() << "ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("make 4 priors per cell"), std::string::npos) << e.what();
  }
}

// DetectionOutput on one image, two priors and two classes. Priors p0 = [0, 0, 0.5, 0.5] and
// p1 = [0.1, 0.1, 0.6, 0.6] overlap by 0.16 / 0.34 = 0.47. Scores: p0 (0.1, 0.9), p1 (0.3, 0.8).
const std::vector<float> kPriors{0, 0, 0.5f, 0.5f, 0.1f, 0.1f, 0.6f, 0.6f};
const std::vector<float> kScores{0.1f, 0.9f, 0.3f, 0.8f};

struct Detection {
  std::string version = "opset8";
  std::string data;
  std::vector<float> logits = std::vector<float>(8, 0);
  std::vector<float> priors = kPriors;  // with the variances appended when not in the target
  int64_t rows = 4;
};

Tensor detect(const std::string& dir, const Detection& d) {
  const auto priors_rows = static_cast<int64_t>(d.priors.size() / 8);
  const auto logits = static_cast<int64_t>(d.logits.size());
  std::string xml = test::ov_one_layer_net(
      {{test::ov_parameter(0, "logits", {1, logits}), {1, logits}},
       {test::ov_parameter(1, "scores", {1, 4}), {1, 4}},
       {test::ov_parameter(2, "priors", {1, priors_rows, 8}), {1, priors_rows, 8}}},
      "DetectionOutput", d.version, d.data, {1, 1, d.rows, 7}, "detections");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml),
                                 {{"logits", f32({1, logits}, d.logits)},
                                  {"scores", f32({1, 4}, kScores)},
                                  {"priors", f32({1, priors_rows, 8}, d.priors)}});
  EXPECT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 1, d.rows, 7}));
  return out[0].second.tensor();
}

// The attributes shared by the cases: background 0 (only class 1 is detected), all boxes.
std::string detection_data(const std::string& more) {
  return R"(background_label_id="0" top_k="-1" keep_top_k="-1" confidence_threshold="0" )"
         R"(normalized="true" input_height="1" input_width="1" )" +
         more;
}

const std::vector<float> kEnd{-1, 0, 0, 0, 0, 0, 0};
const std::vector<float> kZeros(7, 0);

std::vector<float> rows(std::initializer_list<std::vector<float>> list) {
  std::vector<float> v;
  for (const auto& r : list) v.insert(v.end(), r.begin(), r.end());
  return v;
}

// CORNER with the variance in the target: the boxes are the priors plus the logits (0).
// NMS 0.5 keeps p1 (0.47), 0.4 drops it; the rows are N * P * C = 4.
TEST(OpenVinoDetection, DetectionOutputNmsKeepsAndSuppresses) {
  Detection d;
  d.data = detection_data(R"(code_type="caffe.PriorBoxParameter.CORNER" share_location="true" )"
                          R"(variance_encoded_in_target="true" nms_threshold="0.5")");
  expect_close(
      detect("ov_do_keep", d),
      rows({{0, 1, 0.9f, 0, 0, 0.5f, 0.5f}, {0, 1, 0.8f, 0.1f, 0.1f, 0.6f, 0.6f}, kEnd, kZeros}));
  d.data = test::replaced(d.data, R"(nms_threshold="0.5")", R"(nms_threshold="0.4")");
  expect_close(detect("ov_do_suppress", d),
               rows({{0, 1, 0.9f, 0, 0, 0.5f, 0.5f}, kEnd, kZeros, kZeros}));
}

// No background: class 0 keeps p1 (0.3), p0 (0.1); class 1 p0 (0.9), p1 (0.8). keep_top_k 3
// keeps 0.9, 0.8 and 0.3, listed by label: (0, p1), (1, p0), (1, p1). DetectionOutput-1 with
// num_classes 2 reads the same.
TEST(OpenVinoDetection, DetectionOutputKeepTopK) {
  for (const char* version : {"opset8", "opset1"}) {
    Detection d;
    d.version = version;
    d.rows = 3;
    d.data = test::replaced(
        detection_data(R"(code_type="caffe.PriorBoxParameter.CORNER" share_location="true" )"
                       R"(variance_encoded_in_target="true" nms_threshold="0.5" num_classes="2")"),
        R"(background_label_id="0" top_k="-1" keep_top_k="-1")",
        R"(background_label_id="-1" top_k="-1" keep_top_k="3")");
    expect_close(detect(std::string("ov_do_top_") + version, d),
                 rows({{0, 0, 0.3f, 0.1f, 0.1f, 0.6f, 0.6f},
                       {0, 1, 0.9f, 0, 0, 0.5f, 0.5f},
                       {0, 1, 0.8f, 0.1f, 0.1f, 0.6f, 0.6f}}));
  }
}

// share_location false: logits per prior and class ([p][c][4]). Class 1 moves p1 by 0.2 to
// [0.3, 0.3, 0.8, 0.8], which overlaps p0 by 0.04 / 0.46 = 0.09: NMS 0.4 keeps it. Class 0's
// logits (the background's, 9) are never decoded.
TEST(OpenVinoDetection, DetectionOutputPerClassLocations) {
  Detection d;
  d.logits = {9, 9, 9, 9, 0, 0, 0, 0, 9, 9, 9, 9, 0.2f, 0.2f, 0.2f, 0.2f};
  d.data = detection_data(R"(code_type="caffe.PriorBoxParameter.CORNER" share_location="false" )"
                          R"(variance_encoded_in_target="true" nms_threshold="0.4")");
  expect_close(
      detect("ov_do_unshared", d),
      rows({{0, 1, 0.9f, 0, 0, 0.5f, 0.5f}, {0, 1, 0.8f, 0.3f, 0.3f, 0.8f, 0.8f}, kEnd, kZeros}));
}

// Variances [0.1, 0.1, 0.2, 0.2] in the priors' second row. CORNER: p0 with logits 1 becomes
// [0.1, 0.1, 0.7, 0.7], which overlaps p1 by 0.25 / 0.36 = 0.69: NMS 0.5 drops p1.
TEST(OpenVinoDetection, DetectionOutputCornerWithVariance) {
  Detection d;
  d.logits = {1, 1, 1, 1, 0, 0, 0, 0};
  d.priors = kPriors;
  for (int p = 0; p < 2; ++p) d.priors.insert(d.priors.end(), kVariance.begin(), kVariance.end());
  d.data = detection_data(R"(code_type="caffe.PriorBoxParameter.CORNER" share_location="true" )"
                          R"(variance_encoded_in_target="false" nms_threshold="0.5")");
  expect_close(detect("ov_do_corner_var", d),
               rows({{0, 1, 0.9f, 0.1f, 0.1f, 0.7f, 0.7f}, kEnd, kZeros, kZeros}));
}

// CENTER_SIZE: p0 (centre 0.25, 0.25, size 0.5) with logits [1, -1, 0, 5 ln 2] is centred at
// 0.25 + 0.1 * 1 * 0.5 = 0.3 and 0.25 - 0.05 = 0.2, 0.5 wide and exp(0.2 * 5 ln 2) * 0.5 = 1
// high: [0.05, -0.3, 0.55, 0.7]. It overlaps p1 (logits 0: itself) by 0.225 / 0.525 = 0.43,
// kept under 0.5.
TEST(OpenVinoDetection, DetectionOutputCenterSize) {
  Detection d;
  d.logits = {1, -1, 0, 5 * std::log(2.0f), 0, 0, 0, 0};
  d.priors = kPriors;
  for (int p = 0; p < 2; ++p) d.priors.insert(d.priors.end(), kVariance.begin(), kVariance.end());
  d.data =
      detection_data(R"(code_type="caffe.PriorBoxParameter.CENTER_SIZE" share_location="true" )"
                     R"(variance_encoded_in_target="false" nms_threshold="0.5")");
  expect_close(detect("ov_do_center", d), rows({{0, 1, 0.9f, 0.05f, -0.3f, 0.55f, 0.7f},
                                                {0, 1, 0.8f, 0.1f, 0.1f, 0.6f, 0.6f},
                                                kEnd,
                                                kZeros}));
}

// decrease_label_id (MXNet's NMS): each prior goes to its best class from 1 (here class 1
// for both, 0.9 and 0.8), NMS 0.5 keeps both, and labels are written one lower: 0.
TEST(OpenVinoDetection, DetectionOutputMxNetLabels) {
  Detection d;
  d.data = detection_data(
      R"(code_type="caffe.PriorBoxParameter.CORNER" share_location="true" )"
      R"(variance_encoded_in_target="true" nms_threshold="0.5" decrease_label_id="true")");
  expect_close(
      detect("ov_do_mxnet", d),
      rows({{0, 0, 0.9f, 0, 0, 0.5f, 0.5f}, {0, 0, 0.8f, 0.1f, 0.1f, 0.6f, 0.6f}, kEnd, kZeros}));
}

TEST(OpenVinoDetection, DetectionOutputRefusals) {
  auto net = [](const std::string& version, const std::string& data) {
    return test::ov_one_layer_net({{test::ov_parameter(0, "logits", {1, 8}), {1, 8}},
                                   {test::ov_parameter(1, "scores", {1, 4}), {1, 4}},
                                   {test::ov_parameter(2, "priors", {1, 1, 8}), {1, 1, 8}}},
                                  "DetectionOutput", version, data, {1, 1, 4, 7}, "detections");
  };
  const std::string ok = R"(keep_top_k="-1" nms_threshold="0.5" normalized="true" )"
                         R"(variance_encoded_in_target="true")";
  Error e = test::ir_load_error("ov_do_code", net("opset8", ok + R"( code_type="CORNER")"));
  EXPECT_NE(std::string(e.what()).find("code_type must be either"), std::string::npos) << e.what();
  // Two priors hold 4 scores: 3 classes do not fit.
  e = test::ir_load_error("ov_do_classes", net("opset1", ok + R"( num_classes="3")"));
  EXPECT_NE(std::string(e.what()).find("num_prior_boxes * num_classes (6)"), std::string::npos)
      << e.what();
  e = test::ir_load_error("ov_do_no_classes", net("opset1", ok));
  EXPECT_NE(std::string(e.what()).find("Number of classes must be greater than zero"),
            std::string::npos)
      << e.what();
}

// ReorgYolo reads [N, C, H, W] as [N, C / s², H * s, W * s] and gives out[n][c][h][w] (over the
// input's own dims) = in'[n][c % C'][h * s + c / C' / s][w * s + c / C' % s], C' = C / s²
// (OpenVINO's reference, reorg_yolo.cpp).
TEST(OpenVinoDetection, ReorgYoloStride2) {
  std::vector<float> x(16);
  for (size_t i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  const std::string xml =
      test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 4, 2, 2}), {1, 4, 2, 2}}},
                             "ReorgYolo", "opset1", R"(stride="2")", {1, 16, 1, 1}, "y");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_reorg"), "m", xml),
                                 {{"x", f32({1, 4, 2, 2}, x)}});
  const int64_t s = 2, C = 4, H = 2, W = 2, c2 = C / (s * s), h2 = H * s, w2 = W * s;
  std::vector<float> want(16);
  for (int64_t c = 0; c < C; ++c)
    for (int64_t h = 0; h < H; ++h)
      for (int64_t w = 0; w < W; ++w) {
        const int64_t offset = c / c2;
        const int64_t from = ((c % c2) * h2 + h * s + offset / s) * w2 + w * s + offset % s;
        want[static_cast<size_t>((c * H + h) * W + w)] = x[static_cast<size_t>(from)];
      }
  // By hand: out[1] = in[2], out[4] = in[1], out[8] = in[4].
  EXPECT_EQ(want[1], 2);
  EXPECT_EQ(want[4], 1);
  EXPECT_EQ(want[8], 4);
  EXPECT_EQ(out[0].second.tensor().shape().vec(), (std::vector<int64_t>{1, 16, 1, 1}));
  expect_close(out[0].second.tensor(), want);
  Error e = test::ir_load_error(
      "ov_reorg_bad",
      test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 4, 3, 2}), {1, 4, 3, 2}}},
                             "ReorgYolo", "opset1", R"(stride="2")", {1, 16, 1, 1}, "y"));
  EXPECT_NE(std::string(e.what()).find("divisible by stride"), std::string::npos) << e.what();
}

// RegionYolo on two regions of coords 4 + classes 2 + 1 entries over a 1 x 2 map: per region,
// entries 0-1 sigmoid, 2-3 as they are, 4 sigmoid, 5-6 a softmax over the two classes at each
// place (do_softmax) or sigmoid (YOLOv3, the mask's two regions).
std::vector<float> region_yolo_reference(const std::vector<float>& x, bool softmax) {
  auto sigmoid = [](float v) { return 1 / (1 + std::exp(-v)); };
  std::vector<float> y = x;
  for (size_t r = 0; r < 2; ++r)
    for (size_t loc = 0; loc < 2; ++loc) {
      auto at = [&](size_t e) { return (r * 7 + e) * 2 + loc; };
      for (size_t e : {0, 1, 4}) y[at(e)] = sigmoid(x[at(e)]);
      if (!softmax) {
        for (size_t e : {5, 6}) y[at(e)] = sigmoid(x[at(e)]);
        continue;
      }
      const float a = std::exp(x[at(5)]), b = std::exp(x[at(6)]);
      y[at(5)] = a / (a + b);
      y[at(6)] = b / (a + b);
    }
  return y;
}

TEST(OpenVinoDetection, RegionYolo) {
  std::vector<float> x(28);
  for (size_t i = 0; i < 28; ++i) x[i] = (static_cast<float>(i % 9) - 4) * 0.5f;
  for (bool softmax : {true, false}) {
    const std::string data =
        softmax
            ? R"(axis="1" end_axis="3" classes="2" coords="4" num="2" do_softmax="true" anchors="1,1,2,2")"
            : R"(axis="1" end_axis="3" classes="2" coords="4" num="6" do_softmax="false" mask="0,1")";
    const std::vector<int64_t> out_dims =
        softmax ? std::vector<int64_t>{1, 28} : std::vector<int64_t>{1, 14, 1, 2};
    const std::string xml =
        test::ov_one_layer_net({{test::ov_parameter(0, "x", {1, 14, 1, 2}), {1, 14, 1, 2}}},
                               "RegionYolo", "opset1", data, out_dims, "y");
    NamedValues out = test::run_ir(
        test::save_ir(test::scratch_dir(softmax ? "ov_region_softmax" : "ov_region_v3"), "m", xml),
        {{"x", f32({1, 14, 1, 2}, x)}});
    EXPECT_EQ(out[0].second.tensor().shape().vec(), out_dims);
    expect_close(out[0].second.tensor(), region_yolo_reference(x, softmax));
  }
}

// An SSD head as OpenVINO's serializer writes one (tests/fixtures/openvino/ssd_head.xml):
// PriorBox-8 over the dims ShapeOf and StridedSlice take from the feature map and the image,
// Unsqueeze, DetectionOutput-8. The priors are those of PriorBox8MinMaxThenRatios (16, 4 a
// cell); class 1 scores prior 0 (cell (0, 0)'s min box [0.125, 0.125, 0.375, 0.375]) 0.9 and
// prior 5 (cell (0, 1)'s max box [3, -1, 9, 5] / 8, clipped) 0.7; they do not overlap.
TEST(OpenVinoDetection, SsdHeadAsOpenVinoWritesIt) {
  std::ifstream file(test::source_dir() + "/tests/fixtures/openvino/ssd_head.xml");
  std::stringstream text;
  text << file.rdbuf();
  ASSERT_FALSE(text.str().empty());
  // The Consts: StridedSlice's begin 2, end 4 and stride 1, Unsqueeze's axis 0.
  const std::string path = test::save_ir(test::scratch_dir("ov_ssd_head"), "ssd_head", text.str(),
                                         test::bytes_of<int64_t>({2, 4, 1, 0}));
  std::vector<float> scores(32, 0);
  scores[0 * 2 + 1] = 0.9f;
  scores[5 * 2 + 1] = 0.7f;
  const NamedValues inputs{{"feature_map", f32({1, 8, 2, 2}, std::vector<float>(32, 0))},
                           {"image", f32({1, 3, 8, 8}, std::vector<float>(192, 0))},
                           {"box_logits", f32({1, 64}, std::vector<float>(64, 0))},
                           {"class_scores", f32({1, 32}, scores)}};
  NamedValues out = test::run_ir(path, inputs);
  ASSERT_EQ(out.size(), 1u);
  expect_close(out[0].second.tensor(), rows({{0, 1, 0.9f, 0.125f, 0.125f, 0.375f, 0.375f},
                                             {0, 1, 0.7f, 0.375f, 0, 1, 0.625f},
                                             kEnd,
                                             kZeros}));

  // As ONNX: the org.openvinotoolkit nodes OpenVINO's ONNX frontend reads, PriorBox reading
  // the feature map and the image themselves.
  std::unique_ptr<ir::Model> model = openvino::read_model_file(path);
  EXPECT_EQ(model->opset("org.openvinotoolkit"), 1);
  int found = 0;
  for (const auto& n : model->graph->nodes) {
    if (n->domain != "org.openvinotoolkit") continue;
    ++found;
    if (n->op_type == "PriorBox") {
      EXPECT_EQ(n->inputs.at(0)->name, "feature_map");
      EXPECT_EQ(n->inputs.at(1)->name, "image");
    }
  }
  EXPECT_EQ(found, 2);
  EXPECT_NE(onnx::write_model_bytes(*model).find("org.openvinotoolkit"), std::string::npos);
  // And back: PriorBox-8 and DetectionOutput-8, as OpenVINO's reader takes them.
  openvino::IrFiles files = openvino::write_ir(*model);
  EXPECT_NE(files.xml.find(R"(type="PriorBox" version="opset8")"), std::string::npos);
  EXPECT_NE(files.xml.find(R"(type="DetectionOutput" version="opset8")"), std::string::npos);
  test::expect_ov_reader_accepts(files.xml, "the SSD head");
}

}  // namespace
}  // namespace bough
