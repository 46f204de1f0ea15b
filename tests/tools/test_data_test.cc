// `bough test-data` passes a folder only when there was something to compare and it matched:
// no data sets, a data set whose input files do not fit the model, and an unreadable
// expected output all fail.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "formats/onnx/tensor_proto.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using test::f32;
using test::GraphBuilder;

// A folder in the backend-test layout: DIR/NAME/model.onnx for a one-node model with
// float[2] inputs, and a test_data_set_0 holding `inputs` and `outputs` as .pb files
// (no data set at all when both are empty).
fs::path make_test(const fs::path& dir, const std::string& name, const std::string& op,
                   int model_inputs, const std::vector<Tensor>& inputs,
                   const std::vector<Tensor>& outputs) {
  GraphBuilder g;
  std::vector<std::string> names;
  for (int i = 0; i < model_inputs; ++i) {
    names.push_back("x" + std::to_string(i));
    g.input(names.back(), ElemType::Float, {2});
  }
  g.output("y", ElemType::Float, {2});
  g.node(op, names, {"y"}, "n");
  fs::path test = dir / name;
  fs::create_directories(test);
  test::save_model(test::make_model(g), test.string(), "model.onnx");
  if (inputs.empty() && outputs.empty()) return test;
  fs::path set = test / "test_data_set_0";
  fs::create_directories(set);
  for (size_t i = 0; i < inputs.size(); ++i)
    onnx::write_tensor_file(inputs[i], (set / ("input_" + std::to_string(i) + ".pb")).string());
  for (size_t i = 0; i < outputs.size(); ++i)
    onnx::write_tensor_file(outputs[i], (set / ("output_" + std::to_string(i) + ".pb")).string());
  return test;
}

int test_data(const fs::path& dir, std::string* out) {
  return test::run_cli("test-data '" + dir.string() + "'", out);
}

TEST(TestData, PassesWhenTheOutputsMatch) {
  fs::path dir = test::scratch_dir("test_data_pass");
  make_test(dir, "test_relu", "Relu", 1, {f32({2}, {-1, 2})}, {f32({2}, {0, 2})});
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 0) << out;
  EXPECT_NE(out.find("PASS test_relu\n"), std::string::npos) << out;
  EXPECT_NE(out.find("1 passed, 0 failed, 0 skipped"), std::string::npos) << out;
}

// Test folders at any depth under the folder given, each named by its path from there.
TEST(TestData, NestedFoldersAreWalked) {
  fs::path dir = test::scratch_dir("test_data_nested");
  make_test(dir / "suite_a", "test_relu", "Relu", 1, {f32({2}, {-1, 2})}, {f32({2}, {0, 2})});
  make_test(dir / "suite_b" / "deeper", "test_neg", "Neg", 1, {f32({2}, {-1, 2})},
            {f32({2}, {1, -2})});
  make_test(dir / "suite_b", "test_abs", "Abs", 1, {f32({2}, {-1, 2})}, {f32({2}, {1, 2})});
  fs::create_directories(dir / "empty" / "folder");
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 0) << out;
  EXPECT_EQ(out,
            "PASS suite_a/test_relu\nPASS suite_b/deeper/test_neg\nPASS suite_b/test_abs\n"
            "3 passed, 0 failed, 0 skipped\n");
  EXPECT_EQ(test_data(dir / "suite_b", &out), 0) << out;
  EXPECT_NE(out.find("PASS deeper/test_neg\nPASS test_abs\n2 passed"), std::string::npos) << out;
}

TEST(TestData, FolderWithoutDataSetsFails) {
  fs::path dir = test::scratch_dir("test_data_no_sets");
  fs::path test = make_test(dir, "test_nodata", "Relu", 1, {}, {});
  std::string out;
  EXPECT_EQ(test_data(test, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_nodata: no test data sets"), std::string::npos) << out;
  EXPECT_NE(out.find("0 passed, 1 failed, 0 skipped"), std::string::npos) << out;
  // The same through the parent folder.
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_nodata: no test data sets"), std::string::npos) << out;
}

// An input file the model has no input for would be ignored: the data set is not this
// model's.
TEST(TestData, ExtraInputFileFails) {
  fs::path dir = test::scratch_dir("test_data_extra_input");
  make_test(dir, "test_extra", "Relu", 1, {f32({2}, {-1, 2}), f32({2}, {5, 6})},
            {f32({2}, {0, 2})});
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_extra: test_data_set_0: 2 input files, the model has 1 inputs"),
            std::string::npos)
      << out;
}

TEST(TestData, MissingInputFileFails) {
  fs::path dir = test::scratch_dir("test_data_missing_input");
  make_test(dir, "test_short", "Add", 2, {f32({2}, {1, 2})}, {f32({2}, {1, 2})});
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_short: test_data_set_0: 1 input files, the model has 2 inputs"),
            std::string::npos)
      << out;
}

// An empty file is a valid (empty) protobuf message; as a tensor it has no element type.
TEST(TestData, UnreadableOutputFails) {
  fs::path dir = test::scratch_dir("test_data_bad_output");
  fs::path test = make_test(dir, "test_bad", "Relu", 1, {f32({2}, {-1, 2})}, {f32({2}, {0, 2})});
  std::ofstream(test / "test_data_set_0" / "output_0.pb", std::ios::trunc).close();
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_bad: "), std::string::npos) << out;
}

// Bug 3 end to end: an expected infinity is not matched by a finite output.
TEST(TestData, FiniteOutputForAnExpectedInfinityFails) {
  fs::path dir = test::scratch_dir("test_data_inf");
  const float inf = std::numeric_limits<float>::infinity();
  make_test(dir, "test_inf", "Identity", 1, {f32({2}, {1e30f, -inf})}, {f32({2}, {inf, -inf})});
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_inf: test_data_set_0 output 'y': element 0 is 1.00000002e+30, "
                     "expected inf"),
            std::string::npos)
      << out;
}

// A one-node model DIR/NAME of `op` (opset 22) from input x to output y, typed by `input`
// and `expected`, with one data set holding them.
void make_node_test(const fs::path& dir, const std::string& name, const std::string& op,
                    const Tensor& input, const Tensor& expected) {
  GraphBuilder g;
  g.input("x", input.type(), input.shape().vec());
  g.output("y", expected.type(), expected.shape().vec());
  g.node(op, {"x"}, {"y"}, "n");
  fs::path test = dir / name;
  fs::create_directories(test / "test_data_set_0");
  test::save_model(test::make_model(g, 22, 10), test.string(), "model.onnx");
  onnx::write_tensor_file(input, (test / "test_data_set_0" / "input_0.pb").string());
  onnx::write_tensor_file(expected, (test / "test_data_set_0" / "output_0.pb").string());
}

// 200 alternating zeros and ones: the mean 0.5 of Bernoulli(0.5), though bough's draws
// differ from them element by element.
Tensor alternating(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 2);
  return f32({static_cast<int64_t>(n)}, v);
}

// A random model passes on a plausible draw of its distribution, and says how it was
// checked; the same expected values for a model that draws nothing fail on the first
// differing element.
TEST(TestData, OnlyRandomModelsAreCheckedByDistribution) {
  fs::path dir = test::scratch_dir("test_data_random");
  make_node_test(dir, "test_coin", "Bernoulli", f32({200}, std::vector<float>(200, 0.5f)),
                 alternating(200));
  make_node_test(dir, "test_round", "Round", f32({200}, std::vector<float>(200, 0.6f)),
                 alternating(200));
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("PASS test_coin (checked by distribution: type, shape, support, mean within "
                     "4 standard errors; false-failure rate < 1e-4; seeds fixed)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("FAIL test_round: test_data_set_0 output 'y': element 0 is 1, expected 0"),
            std::string::npos)
      << out;
  EXPECT_EQ(out.find("test_round (checked by distribution"), std::string::npos) << out;
}

// Probability 0.05 against expected all ones: a mean of about 0.05 against 1, far beyond
// 4 standard errors (4 * sqrt(2 * 0.25 / 200) = 0.2). Uniform draws against expected 0/1 values
// leave the support {0, 1}. A wrong shape fails before any statistics.
TEST(TestData, RandomModelsFailOnMeanSupportAndShape) {
  fs::path dir = test::scratch_dir("test_data_random_fail");
  make_node_test(dir, "test_mean", "Bernoulli", f32({200}, std::vector<float>(200, 0.05f)),
                 f32({200}, std::vector<float>(200, 1)));
  make_node_test(dir, "test_support", "RandomUniformLike", f32({200}, std::vector<float>(200, 0)),
                 alternating(200));
  make_node_test(dir, "test_shape", "Bernoulli", f32({4}, {0, 1, 0, 1}), f32({2}, {0, 1}));
  std::string out;
  EXPECT_EQ(test_data(dir, &out), 1) << out;
  EXPECT_NE(out.find("FAIL test_mean: test_data_set_0 output 'y': mean 0."), std::string::npos)
      << out;
  EXPECT_NE(out.find(", expected 1 within 0.2 (checked by distribution"), std::string::npos) << out;
  EXPECT_NE(out.find("FAIL test_support: test_data_set_0 output 'y': element 0 is 0."),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("outside the support {0, 1}"), std::string::npos) << out;
  EXPECT_NE(out.find("FAIL test_shape: "), std::string::npos) << out;
  EXPECT_NE(out.find("0 passed, 3 failed, 0 skipped"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough
