// ScaledDotProductAttention-13 read from IR written as OpenVINO's serializer writes it, run as
// read and after IR -> ONNX -> IR (run_ir). Expected values come from a loop over the
// specification's pseudo-code (sequence/scaled-dot-product-attention.rst): softmax over keys
// of Q K^T * scale plus the bias, times V.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// Q [1, 2, 2] (L = 2, E = 2), K [1, 3, 2] (S = 3), V [1, 3, 2].
const std::vector<float> kQ{1, 0, 0.5f, 1}, kK{1, 0, 0, 1, 1, 1}, kV{1, 2, 3, 4, 5, 6};
constexpr int kL = 2, kS = 3, kE = 2;
const double kInf = std::numeric_limits<double>::infinity();

std::vector<float> reference(double scale, const std::function<double(int, int)>& bias) {
  std::vector<float> out;
  for (int l = 0; l < kL; ++l) {
    std::vector<double> w(kS);
    double top = -kInf, sum = 0;
    for (int j = 0; j < kS; ++j) {
      double dot = 0;
      for (int e = 0; e < kE; ++e) dot += kQ[l * kE + e] * kK[j * kE + e];
      w[j] = dot * scale + bias(l, j);
      top = std::max(top, w[j]);
    }
    for (double& x : w) sum += (x = std::exp(x - top));
    for (int e = 0; e < 2; ++e) {
      double y = 0;
      for (int j = 0; j < kS; ++j) y += w[j] / sum * kV[j * 2 + e];
      out.push_back(static_cast<float>(y));
    }
  }
  return out;
}

// An SDPA layer reading q, k, v and the `more` sources (mask, scale) in port order.
// Q's dims as `q_dims` (its last may be left unknown: -1).
std::string sdpa_net(const std::vector<test::OvSource>& more, const std::string& causal,
                     const std::vector<int64_t>& q_dims = {1, 2, 2}) {
  std::vector<test::OvSource> sources{{test::ov_parameter(0, "q", q_dims), q_dims},
                                      {test::ov_parameter(1, "k", {1, 3, 2}), {1, 3, 2}},
                                      {test::ov_parameter(2, "v", {1, 3, 2}), {1, 3, 2}}};
  sources.insert(sources.end(), more.begin(), more.end());
  return test::ov_one_layer_net(sources, "ScaledDotProductAttention", "opset13",
                                "causal=\"" + causal + "\"", {1, 2, 2}, "y");
}

std::vector<float> run_sdpa(const std::string& dir, const std::string& xml, NamedValues extra = {},
                            const std::string& weights = "") {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, weights);
  NamedValues ins{{"q", f32({1, 2, 2}, kQ)}, {"k", f32({1, 3, 2}, kK)}, {"v", f32({1, 3, 2}, kV)}};
  ins.insert(ins.end(), extra.begin(), extra.end());
  NamedValues out = test::run_ir(path, ins);
  return floats_of(out[0].second.tensor());
}

void expect_near_all(const std::vector<float>& got, const std::vector<float>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5) << "at " << i;
}

// No mask: the scale is 1 / sqrt(E).
TEST(OpenVinoSdpa, DefaultScaleIsOneOverRootE) {
  expect_near_all(run_sdpa("ov_sdpa_plain", sdpa_net({}, "false")),
                  reference(1 / std::sqrt(2.0), [](int, int) { return 0.0; }));
}

// With E unknown in the file, the scale is computed at run time, the same.
TEST(OpenVinoSdpa, DefaultScaleFromERunTime) {
  expect_near_all(run_sdpa("ov_sdpa_dynamic_e", sdpa_net({}, "false", {1, 2, -1})),
                  reference(1 / std::sqrt(2.0), [](int, int) { return 0.0; }));
}

// A float mask [1, 2, 3] is added; the scale input 0.25 replaces 1 / sqrt(E).
TEST(OpenVinoSdpa, FloatMaskIsAddedAndScaleInputUsed) {
  std::string xml = sdpa_net({{test::ov_parameter(3, "mask", {1, 2, 3}), {1, 2, 3}},
                              {test::ov_const(4, "scale", {}, "f32", 0), {}}},
                             "false");
  const std::vector<float> mask{0, -1, 2, 0.5f, 0, -3};
  expect_near_all(
      run_sdpa("ov_sdpa_float_mask", xml, {{"mask", f32({1, 2, 3}, mask)}},
               test::bytes_of<float>({0.25f})),
      reference(0.25, [&](int l, int j) { return static_cast<double>(mask[l * 3 + j]); }));
}

// A boolean mask [1, 1, 3], broadcast over L: true takes part, false is -inf.
TEST(OpenVinoSdpa, BooleanMaskTrueTakesPart) {
  std::string xml =
      sdpa_net({{test::ov_parameter(3, "mask", {1, 1, 3}, "boolean"), {1, 1, 3}}}, "false");
  const std::vector<bool> mask{true, false, true};
  expect_near_all(run_sdpa("ov_sdpa_bool_mask", xml, {{"mask", test::boolean({1, 1, 3}, mask)}}),
                  reference(1 / std::sqrt(2.0), [&](int, int j) { return mask[j] ? 0.0 : -kInf; }));
}

// causal: query l sees keys 0..l (the top-left triangle of the 2 x 3 scores, so the third
// key is never seen); the mask input, all false, is ignored.
TEST(OpenVinoSdpa, CausalIsTopLeftAndIgnoresTheMask) {
  std::string xml =
      sdpa_net({{test::ov_parameter(3, "mask", {1, 2, 3}, "boolean"), {1, 2, 3}}}, "true");
  std::vector<float> y =
      run_sdpa("ov_sdpa_causal", xml,
               {{"mask", test::boolean({1, 2, 3}, {false, false, false, false, false, false})}});
  expect_near_all(y,
                  reference(1 / std::sqrt(2.0), [](int l, int j) { return j > l ? -kInf : 0.0; }));
  // The first query reads V's first row alone.
  EXPECT_FLOAT_EQ(y[0], 1);
  EXPECT_FLOAT_EQ(y[1], 2);
}

TEST(OpenVinoSdpa, ASinkInputIsRefused) {
  std::string xml = sdpa_net({{test::ov_parameter(3, "mask", {1, 2, 3}), {1, 2, 3}},
                              {test::ov_parameter(4, "scale", {}), {}},
                              {test::ov_parameter(5, "sink", {1, 1, 1}), {1, 1, 1}}},
                             "false");
  Error e = test::ir_load_error("ov_sdpa_sink", xml);
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(std::string(e.what()).find("sink"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace bough
