// The test runner's compatibility rules for suites from older ONNX generators
// (exec/test_data_legacy.h): bfloat16 stored as UINT16 bits, hand-typed input shapes, and
// truncated expected values. Each test writes a real test folder (model.onnx and
// test_data_set_0/*.pb) and runs check_test_data on it, as `bough test-data` does.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "error_text.h"
#include "exec/test_data.h"
#include "formats/onnx/tensor_proto.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {
namespace {

namespace fs = std::filesystem;

Tensor bits(Dims64 dims, std::vector<uint16_t> v) {
  return Tensor::from_vector<uint16_t>(ElemType::UInt16, Dims(std::span<const int64_t>(dims)), v);
}

// A test folder `name` holding the model of `g` and one data set; returns what
// check_test_data says ("" when it passes).
std::string check_folder(const std::string& name, const GraphBuilder& g,
                         const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs) {
  const fs::path dir = fs::path(scratch_dir("test_data_legacy")) / name;
  fs::create_directories(dir / "test_data_set_0");
  save_model(make_model(g, 13), dir.string(), "model.onnx");
  for (size_t i = 0; i < inputs.size(); ++i)
    onnx::write_tensor_file(
        inputs[i], (dir / "test_data_set_0" / ("input_" + std::to_string(i) + ".pb")).string());
  for (size_t i = 0; i < outputs.size(); ++i)
    onnx::write_tensor_file(
        outputs[i], (dir / "test_data_set_0" / ("output_" + std::to_string(i) + ".pb")).string());
  return check_test_data(Model::load((dir / "model.onnx").string()), dir);
}

GraphBuilder cast_model(ElemType from, ElemType to, int64_t n) {
  GraphBuilder g("main");
  g.input("x", from, {n});
  set_int(g.node("Cast", {"x"}, {"y"}), "to", static_cast<int64_t>(to));
  g.output("y", to, {n});
  return g;
}

// 1 + 2^-8 + 2^-9 is float 0x3F80C000: truncated to bfloat16 0x3F80 (1), rounded to nearest
// even 0x3F81 (1.0078125), which Cast gives. -1 - 2^-8 - 2^-9 likewise with the sign bit.
const float kBetween = 1.0f + 1.0f / 256 + 1.0f / 512;

TEST(TestDataLegacy, ExpectedBfloat16BitsMayBeTruncated) {
  const GraphBuilder g = cast_model(ElemType::Float, ElemType::BFloat16, 4);
  const Tensor x = f32({4}, {kBetween, -kBetween, 1, std::numeric_limits<float>::infinity()});
  EXPECT_EQ(check_folder("truncated", g, {x}, {bits({4}, {0x3F80, 0xBF80, 0x3F80, 0x7F80})}), "");
  // Rounded expectations match too.
  EXPECT_EQ(check_folder("rounded", g, {x}, {bits({4}, {0x3F81, 0xBF81, 0x3F80, 0x7F80})}), "");
}

TEST(TestDataLegacy, OnlyOneStepAwayFromZeroIsForgiven) {
  const GraphBuilder g = cast_model(ElemType::Float, ElemType::BFloat16, 1);
  const Tensor x = f32({1}, {kBetween});
  // 0x3F7F is two steps below Cast's 0x3F81; 0x3F82 is above it.
  for (uint16_t wrong : {uint16_t{0x3F7F}, uint16_t{0x3F82}}) {
    const std::string why = check_folder("off", g, {x}, {bits({1}, {wrong})});
    EXPECT_NE(why.find("truncated from float32"), std::string::npos) << why;
  }
}

TEST(TestDataLegacy, NaNMatchesNaNAndInfinityIsNotOneStepPastIt) {
  const GraphBuilder g = cast_model(ElemType::Float, ElemType::BFloat16, 1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(check_folder("nan", g, {f32({1}, {nan})}, {bits({1}, {0x7FC0})}), "");
  // Expected +inf, got NaN: not a truncation.
  EXPECT_NE(check_folder("inf", g, {f32({1}, {nan})}, {bits({1}, {0x7F80})}), "");
}

TEST(TestDataLegacy, Bfloat16InputsAreReadFromTheirBits) {
  // 0x3F81 is 1.0078125, 0xC000 is -2.
  const GraphBuilder g = cast_model(ElemType::BFloat16, ElemType::Float, 2);
  EXPECT_EQ(
      check_folder("input_bits", g, {bits({2}, {0x3F81, 0xC000})}, {f32({2}, {1.0078125f, -2.0f})}),
      "");
  // The float expected values are compared as usual: a wrong one fails.
  EXPECT_NE(
      check_folder("input_bits_wrong", g, {bits({2}, {0x3F81, 0xC000})}, {f32({2}, {1.0f, -2.0f})}),
      "");
}

// CastLike(x, like) with `like` declared [2]; the files give `like` as [1].
GraphBuilder castlike_model(ElemType like) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("like", like, {2});
  g.node("CastLike", {"x", "like"}, {"y"});
  g.output("y", like, {2});
  return g;
}

TEST(TestDataLegacy, HandTypedShapesOfBfloat16TestsAreDropped) {
  // `like` in bits, of shape [1] against the declared [2]: the declared shape goes.
  EXPECT_EQ(check_folder("castlike", castlike_model(ElemType::BFloat16),
                         {f32({2}, {1, -2}), bits({1}, {0x3F80})}, {bits({2}, {0x3F80, 0xC000})}),
            "");
}

TEST(TestDataLegacy, ShapesOfOtherTestsStayChecked) {
  // The same contradiction without bfloat16 bits anywhere is the model's error, as before.
  expect_error_mentioning(
      [] {
        check_folder("castlike_float", castlike_model(ElemType::Float),
                     {f32({2}, {1, -2}), f32({1}, {0})}, {f32({2}, {1, -2})});
      },
      "has shape [1], the model expects [2]");
}

}  // namespace
}  // namespace bough::test
