// Activations, normalizations, layout and Einsum (formats/openvino/ops/activation.cc,
// norm.cc, layout.cc, math.cc), both ways:
// hand-written IR run as read and after IR -> ONNX -> IR (run_ir), and ONNX nodes written as
// IR. Expected values come from OpenVINO's specifications and references, worked out by hand
// or by a loop over the formula in the test.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

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

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-6f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], tol * std::max(1.0f, std::abs(want[i]))) << i;
}

// A net of one layer reading x [dims] (and consts from `bin`); returns y's values.
std::vector<float> run_one(const std::string& dir, const std::vector<test::OvSource>& sources,
                           const std::string& type, const std::string& version,
                           const std::string& data, const std::vector<int64_t>& dims,
                           const std::vector<float>& x, const std::string& bin = "",
                           std::vector<int64_t> out_dims = {}) {
  if (out_dims.empty()) out_dims = dims;
  std::string xml = test::ov_one_layer_net(sources, type, version, data, out_dims, "y");
  NamedValues out =
      test::run_ir(test::save_ir(test::scratch_dir(dir), "m", xml, bin), {{"x", f32(dims, x)}});
  return floats_of(out[0].second.tensor());
}

test::OvSource x_of(const std::vector<int64_t>& dims) {
  return {test::ov_parameter(0, "x", dims), dims};
}

const std::vector<float> kX{-1.0f, 0.0f, 0.5f, 2.0f};

// Gelu-7 (activation/GELU-7): x * Phi(x) for ERF, 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// for TANH; Gelu-2 is the ERF form.
TEST(OpenVinoActivation, GeluBothModes) {
  std::vector<float> erf_form, tanh_form;
  for (float v : kX) {
    erf_form.push_back(0.5f * v * (1.0f + std::erf(v / std::sqrt(2.0f))));
    tanh_form.push_back(
        0.5f * v * (1.0f + std::tanh(std::sqrt(2.0f / 3.14159265f) * (v + 0.044715f * v * v * v))));
  }
  expect_near(
      run_one("ov_gelu_erf", {x_of({4})}, "Gelu", "opset7", R"(approximation_mode="ERF")", {4}, kX),
      erf_form);
  expect_near(run_one("ov_gelu_tanh", {x_of({4})}, "Gelu", "opset7", R"(approximation_mode="tanh")",
                      {4}, kX),
              tanh_form);
  // Gelu-2 has no mode: a stray attribute does not make it TANH.
  expect_near(
      run_one("ov_gelu2", {x_of({4})}, "Gelu", "opset2", R"(approximation_mode="TANH")", {4}, kX),
      erf_form);
}

// Swish-4: x * sigmoid(beta * x), beta 1 when left out.
TEST(OpenVinoActivation, SwishWithAndWithoutBeta) {
  std::vector<float> beta1, beta2;
  for (float v : kX) {
    beta1.push_back(v / (1.0f + std::exp(-v)));
    beta2.push_back(v / (1.0f + std::exp(-2.0f * v)));
  }
  expect_near(run_one("ov_swish", {x_of({4})}, "Swish", "opset4", "", {4}, kX), beta1);
  expect_near(run_one("ov_swish_beta", {x_of({4}), {test::ov_const(1, "beta", {}, "f32", 0), {}}},
                      "Swish", "opset4", "", {4}, kX, test::bytes_of<float>({2.0f})),
              beta2);
  // beta known only at run time: written out as x * Sigmoid(x * beta).
  std::string xml = test::ov_one_layer_net({x_of({4}), {test::ov_parameter(1, "beta", {}), {}}},
                                           "Swish", "opset4", "", {4}, "y");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_swish_rt"), "m", xml),
                                 {{"x", f32({4}, kX)}, {"beta", f32({}, {2.0f})}});
  expect_near(floats_of(out[0].second.tensor()), beta2);
}

// HSigmoid-5: min(max(x + 3, 0), 6) / 6.
TEST(OpenVinoActivation, HSigmoid) {
  expect_near(
      run_one("ov_hsigmoid", {x_of({6})}, "HSigmoid", "opset5", "", {6}, {-4, -3, 0, 1.5f, 3, 4}),
      {0, 0, 0.5f, 0.75f, 1, 1});
}

// PRelu-1 (OpenVINO's reference): a 1-d slope as long as axis 1 applies along the channels,
// not (as ONNX's numpy rule would) along the last axis, which here has the same length.
// Spelled PReLU, as OpenVINO's serializer has written it.
TEST(OpenVinoActivation, PReluSlopeAlongTheChannels) {
  // x [1, 2, 1, 2]: channel 0 [-1, 2] times 0.1 where negative, channel 1 [-3, 4] times 0.5.
  std::vector<float> y = run_one(
      "ov_prelu", {x_of({1, 2, 1, 2}), {test::ov_const(1, "slope", {2}, "f32", 0), {2}}}, "PReLU",
      "opset1", "", {1, 2, 1, 2}, {-1, 2, -3, 4}, test::bytes_of<float>({0.1f, 0.5f}));
  expect_near(y, {-0.1f, 2, -1.5f, 4});
}

// Selu-1: lambda * (x > 0 ? x : alpha * (exp(x) - 1)), alpha and lambda as inputs.
TEST(OpenVinoActivation, SeluParametersFromInputs) {
  const float alpha = 1.5f, lambda = 2.0f;
  std::vector<float> want;
  for (float v : kX) want.push_back(lambda * (v > 0 ? v : alpha * (std::exp(v) - 1)));
  expect_near(run_one("ov_selu",
                      {x_of({4}),
                       {test::ov_const(1, "alpha", {1}, "f32", 0), {1}},
                       {test::ov_const(2, "lambda", {1}, "f32", 4), {1}}},
                      "Selu", "opset1", "", {4}, kX, test::bytes_of<float>({alpha, lambda})),
              want);
}

// MVN over the last axis of [[1, 2], [3, 5]]: means 1.5 and 4, deviations [-0.5, 0.5] and
// [-1, 1], variances 0.25 and 1.
TEST(OpenVinoActivation, MvnSixAndOne) {
  const std::vector<float> x{1, 2, 3, 5};
  auto mvn6 = [&](const std::string& dir, const std::string& data) {
    return run_one(dir, {x_of({1, 2, 2}), {test::ov_const(1, "axes", {1}, "i64", 0), {1}}}, "MVN",
                   "opset6", data, {1, 2, 2}, x, test::bytes_of<int64_t>({2}));
  };
  // eps 0 inside the root: deviations over 0.5 and 1.
  expect_near(mvn6("ov_mvn6", R"(normalize_variance="true" eps="0" eps_mode="INSIDE_SQRT")"),
              {-1, 1, -1, 1});
  // eps 1 outside: over 1.5 and 2.
  expect_near(mvn6("ov_mvn6_out", R"(normalize_variance="true" eps="1" eps_mode="outside_sqrt")"),
              {-1.0f / 3, 1.0f / 3, -0.5f, 0.5f});
  // without normalize_variance: the deviations
  expect_near(
      mvn6("ov_mvn6_center", R"(normalize_variance="false" eps="1" eps_mode="inside_sqrt")"),
      {-0.5f, 0.5f, -1, 1});
  // MVN-1 (opset2) without across_channels reduces axes 2..: the same axis here; eps 3
  // inside the root: 0.25 + 3 and 1 + 3 under it, roots 1.8028 and 2.
  expect_near(run_one("ov_mvn1", {x_of({1, 2, 2})}, "MVN", "opset2",
                      R"(across_channels="false" normalize_variance="true" eps="3")", {1, 2, 2}, x),
              {-0.5f / std::sqrt(3.25f), 0.5f / std::sqrt(3.25f), -0.5f, 0.5f});
}

// NormalizeL2-1: x / sqrt(sum(x^2) + eps) (add) or x / sqrt(max(sum, eps)) (max).
TEST(OpenVinoActivation, NormalizeL2BothEpsModes) {
  auto run = [&](const std::string& dir, const std::string& data) {
    return run_one(dir, {x_of({1, 2}), {test::ov_const(1, "axes", {1}, "i64", 0), {1}}},
                   "NormalizeL2", "opset1", data, {1, 2}, {3, 4}, test::bytes_of<int64_t>({1}));
  };
  expect_near(run("ov_l2_add", R"(eps="0" eps_mode="add")"), {0.6f, 0.8f});
  // sum 25 < eps 100: divided by 10
  expect_near(run("ov_l2_max", R"(eps="100" eps_mode="MAX")"), {0.3f, 0.4f});
  // add: sqrt(25 + 11) = 6
  expect_near(run("ov_l2_add11", R"(eps="11" eps_mode="add")"), {0.5f, 4.0f / 6});
}

// BatchNormInference: (x - mean) / sqrt(var + eps) * gamma + beta per channel; -1 takes
// (gamma, beta, data, mean, variance), -5 (data, gamma, beta, mean, variance).
TEST(OpenVinoActivation, BatchNormInferenceInputOrderByVersion) {
  // x [1, 2, 1, 1] = [1, 2]; gamma [2, 3], beta [1, 0], mean [0, 1], var [1, 4]:
  // channel 0: (1 - 0) / 1 * 2 + 1 = 3; channel 1: (2 - 1) / 2 * 3 + 0 = 1.5.
  const std::string bin = test::bytes_of<float>({2, 3, 1, 0, 0, 1, 1, 4});
  auto c = [](int id, const char* name, size_t offset) {
    return test::OvSource{test::ov_const(id, name, {2}, "f32", offset), {2}};
  };
  std::vector<int64_t> dims{1, 2, 1, 1};
  expect_near(
      run_one("ov_bn5",
              {x_of(dims), c(1, "gamma", 0), c(2, "beta", 8), c(3, "mean", 16), c(4, "var", 24)},
              "BatchNormInference", "opset5", R"(epsilon="0")", dims, {1, 2}, bin),
      {3, 1.5f});
  // -1: the same values with data third.
  std::string xml =
      test::ov_one_layer_net({c(0, "gamma", 0),
                              c(1, "beta", 8),
                              {test::ov_parameter(2, "x", dims), dims},
                              c(3, "mean", 16),
                              c(4, "var", 24)},
                             "BatchNormInference", "opset1", R"(epsilon="0")", dims, "y");
  NamedValues out = test::run_ir(test::save_ir(test::scratch_dir("ov_bn1"), "m", xml, bin),
                                 {{"x", f32(dims, {1, 2})}});
  expect_near(floats_of(out[0].second.tensor()), {3, 1.5f});
}

// ONNX -> IR: one node `op` on x [dims] (opset `opset`), written, checked to contain
// `expect` and run as IR (and IR -> ONNX -> IR).
std::vector<float> onnx_via_ir(const std::string& op, const std::vector<int64_t>& dims,
                               const std::vector<float>& x, int64_t opset,
                               const std::string& expect,
                               const std::function<void(onnxpb::NodeProto&)>& attrs = {},
                               const std::vector<std::pair<std::string, Tensor>>& consts = {}) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, dims).output("y", ElemType::Float, {}, false);
  std::vector<std::string> ins{"x"};
  for (const auto& [name, t] : consts) {
    g.initializer(name, t);
    ins.push_back(name);
  }
  onnxpb::NodeProto& n = g.node(op, ins, {"y"});
  if (attrs) attrs(n);
  std::string dir = test::scratch_dir("ov_write_" + op);
  auto model = onnx::read_model_file(test::save_model(test::make_model(g, opset), dir, "m.onnx"));
  openvino::IrFiles files = openvino::write_ir(*model);
  EXPECT_NE(files.xml.find(expect), std::string::npos) << files.xml;
  NamedValues out =
      test::run_ir(test::save_ir(dir, "m", files.xml, files.bin), {{"x", f32(dims, x)}});
  return floats_of(out[0].second.tensor());
}

TEST(OpenVinoActivation, OnnxActivationsWrittenAsIr) {
  std::vector<float> tanh_form, hard, selu;
  for (float v : kX) {
    tanh_form.push_back(
        0.5f * v * (1.0f + std::tanh(std::sqrt(2.0f / 3.14159265f) * (v + 0.044715f * v * v * v))));
    hard.push_back(std::max(0.0f, std::min(1.0f, 0.2f * v + 0.5f)));
    const float a = 1.67326319217681884765625f, gamma = 1.05070102214813232421875f;
    selu.push_back(gamma * (v > 0 ? v : a * (std::exp(v) - 1)));
  }
  expect_near(onnx_via_ir("Gelu", {4}, kX, 20, R"(approximation_mode="TANH")",
                          [](onnxpb::NodeProto& n) { test::set_string(n, "approximate", "tanh"); }),
              tanh_form);
  // HardSigmoid's default alpha 0.2 is not HSigmoid's 1/6: Clamp(0.2 x + 0.5, 0, 1).
  expect_near(onnx_via_ir("HardSigmoid", {4}, kX, 17, R"(type="Clamp")"), hard);
  expect_near(onnx_via_ir("HardSigmoid", {4}, kX, 17, R"(type="HSigmoid")",
                          [](onnxpb::NodeProto& n) { test::set_float(n, "alpha", 1.0f / 6); }),
              {2.0f / 6, 0.5f, 3.5f / 6, 5.0f / 6});
  expect_near(onnx_via_ir("Selu", {4}, kX, 17, R"(type="Selu")"), selu);
  // PRelu's 1-d slope [0.1, 0.5] aligns with x's last axis in ONNX, which here is as long as
  // axis 1: x [1, 2, 1, 2] = [-1, 2, -3, 4] -> [-0.1, 2, -0.3, 4].
  expect_near(onnx_via_ir("PRelu", {1, 2, 1, 2}, {-1, 2, -3, 4}, 17, R"(type="PRelu")", {},
                          {{"slope", f32({2}, {0.1f, 0.5f})}}),
              {-0.1f, 2, -0.3f, 4});
}

TEST(OpenVinoActivation, OnnxNormalizationsWrittenAsIr) {
  // MeanVarianceNormalization over axis 2: (x - mean) / (std + 1e-9).
  expect_near(onnx_via_ir("MeanVarianceNormalization", {1, 2, 2}, {1, 2, 3, 5}, 17, R"(type="MVN")",
                          [](onnxpb::NodeProto& n) { test::set_ints(n, "axes", {2}); }),
              {-1, 1, -1, 1}, 1e-5f);
  // LpNormalization p 2 along axis 1; a zero row stays zero.
  expect_near(onnx_via_ir("LpNormalization", {2, 2}, {3, 4, 0, 0}, 17, R"(type="NormalizeL2")",
                          [](onnxpb::NodeProto& n) { test::set_int(n, "axis", 1); }),
              {0.6f, 0.8f, 0, 0});
  // p 1: [3, -1] / 4
  expect_near(onnx_via_ir("LpNormalization", {2, 2}, {3, -1, 0, 0}, 17, R"(type="ReduceL1")",
                          [](onnxpb::NodeProto& n) {
                            test::set_int(n, "axis", 1);
                            test::set_int(n, "p", 1);
                          }),
              {0.75f, -0.25f, 0, 0});
  // BatchNormalization as in BatchNormInferenceInputOrderByVersion.
  expect_near(
      onnx_via_ir("BatchNormalization", {1, 2, 1, 1}, {1, 2}, 17, R"(type="BatchNormInference")",
                  [](onnxpb::NodeProto& n) { test::set_float(n, "epsilon", 0); },
                  {{"gamma", f32({2}, {2, 3})},
                   {"beta", f32({2}, {1, 0})},
                   {"mean", f32({2}, {0, 1})},
                   {"var", f32({2}, {1, 4})}}),
      {3, 1.5f});
}

// DepthToSpace-1 on x [1, 8, 1, 1] = 0..7, block 2: blocks_first (ONNX's DCR) takes output
// channel c of block (h, w) from input channel (2h + w) * 2 + c, depth_first (CRD) from
// 4c + 2h + w.
TEST(OpenVinoActivation, DepthToSpaceBothModesAndSpaceToDepth) {
  std::vector<float> x{0, 1, 2, 3, 4, 5, 6, 7};
  auto d2s = [&](const std::string& dir, const std::string& mode) {
    return run_one(dir, {x_of({1, 8, 1, 1})}, "DepthToSpace", "opset1",
                   "block_size=\"2\" mode=\"" + mode + "\"", {1, 8, 1, 1}, x, "", {1, 2, 2, 2});
  };
  EXPECT_EQ(d2s("ov_d2s_blocks", "blocks_first"), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_EQ(d2s("ov_d2s_depth", "DEPTH_FIRST"), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
  // SpaceToDepth blocks_first of [1, 1, 2, 2] = [1, 2, 3, 4]: channel (2 bh + bw).
  EXPECT_EQ(run_one("ov_s2d", {x_of({1, 1, 2, 2})}, "SpaceToDepth", "opset1",
                    R"(block_size="2" mode="blocks_first")", {1, 1, 2, 2}, {1, 2, 3, 4}, "",
                    {1, 4, 1, 1}),
            (std::vector<float>{1, 2, 3, 4}));
  std::string depth_first =
      test::ov_one_layer_net({x_of({1, 1, 2, 2})}, "SpaceToDepth", "opset1",
                             R"(block_size="2" mode="depth_first")", {1, 4, 1, 1}, "y");
  EXPECT_EQ(test::ir_load_error("ov_s2d_depth", depth_first).kind(), ErrorKind::Unsupported);
  // ONNX's CRD DepthToSpace written as IR.
  EXPECT_EQ(onnx_via_ir("DepthToSpace", {1, 8, 1, 1}, x, 17, R"(mode="depth_first")",
                        [](onnxpb::NodeProto& n) {
                          test::set_int(n, "blocksize", 2);
                          test::set_string(n, "mode", "CRD");
                        }),
            (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
}

// ShuffleChannels-1 with group 2 on channels [0, 1, 2, 3]: [[0, 1], [2, 3]] transposed.
TEST(OpenVinoActivation, ShuffleChannels) {
  EXPECT_EQ(run_one("ov_shuffle", {x_of({1, 4, 1, 1})}, "ShuffleChannels", "opset1",
                    R"(axis="1" group="2")", {1, 4, 1, 1}, {0, 1, 2, 3}),
            (std::vector<float>{0, 2, 1, 3}));
}

// Einsum-7 "ij,jk->ik": [[1, 2], [3, 4]] times the column swap [[0, 1], [1, 0]]; ONNX's
// "ij->ji" written as Einsum-7 transposes.
TEST(OpenVinoActivation, Einsum) {
  EXPECT_EQ(run_one("ov_einsum", {x_of({2, 2}), {test::ov_const(1, "y", {2, 2}, "f32", 0), {2, 2}}},
                    "Einsum", "opset7", R"(equation="ij,jk->ik")", {2, 2}, {1, 2, 3, 4},
                    test::bytes_of<float>({0, 1, 1, 0})),
            (std::vector<float>{2, 1, 4, 3}));
  EXPECT_EQ(onnx_via_ir("Einsum", {2, 2}, {1, 2, 3, 4}, 17, R"(equation="ij->ji")",
                        [](onnxpb::NodeProto& n) { test::set_string(n, "equation", "ij->ji"); }),
            (std::vector<float>{1, 3, 2, 4}));
}

}  // namespace
}  // namespace bough
