// The fusion passes (and merge-transposes) on generated graphs of about 20,000 nodes: every
// candidate is fused (the node counts after the pass say so), the result computes what a
// reference loop in the test does, and a second run of the whole `all` pipeline over the
// result changes nothing. No times are asserted; on these sizes the passes took minutes when
// each candidate scanned the graph for its readers (docs/bench/optimize-time.md).
#include <gtest/gtest.h>

#include <cmath>

#include "formats/read_model.h"
#include "passes/pass.h"
#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

std::string nth(const std::string& prefix, int k) { return prefix + std::to_string(k); }

// Optimizes the model of `g` with the pass `pass` (and dead-code, for the constants a fusion
// leaves unread), expects nothing left for the `all` pipeline to do on the result, and
// returns the result's path.
std::string fused(const GraphBuilder& g, const std::string& name, const std::string& pass) {
  const std::string opt = test::optimize_file(
      test::save_model(test::make_model(g), test::scratch_dir("large_" + name), name + ".onnx"),
      {pass, "dead-code"});
  auto again = read_model_file(opt);
  const passes::PipelineReport second = passes::run_pipeline(*again, passes::all_pipeline());
  for (const passes::PassCount& p : second.passes) EXPECT_EQ(p.changes, 0) << p.name;
  return opt;
}

// 20,000 Transposes with perm [1, 0, 2] in a chain: each pair merges into an Identity, which
// fold-identity folds (all but the one making the output); y = x.
TEST(LargeFusion, MergeTransposesMergesTenThousandPairs) {
  constexpr int kCount = 20000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3, 2});
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    test::set_ints(g.node("Transpose", {last}, {nth("t", k)}), "perm", {1, 0, 2});
    last = nth("t", k);
  }
  g.output(last, ElemType::Float, {2, 3, 2});
  const std::string path =
      test::save_model(test::make_model(g), test::scratch_dir("large_transposes"), "m.onnx");
  const std::string opt = test::optimize_file(path, {"merge-transposes", "fold-identity"});
  EXPECT_EQ(test::count_ops(opt, "Transpose"), 0);
  EXPECT_EQ(test::count_ops(opt, "Identity"), 1);
  std::vector<float> x(12);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
  EXPECT_EQ(floats_of(test::run_plain(opt, {{"x", f32({2, 3, 2}, x)}})[0]), x);
}

// y_k = y_{k-1} W + b, 10,000 times, W 8x8 of 0.125 and b of ones: every element of y_k is
// the mean of y_{k-1} plus 1, so from x = 0..7 (mean 3.5) every element ends at 10003.5.
TEST(LargeFusion, MatMulAddGemmFusesTenThousandPairs) {
  constexpr int kCount = 10000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 8});
  g.initializer("W", f32({8, 8}, std::vector<float>(64, 0.125f)));
  g.initializer("b", f32({8}, std::vector<float>(8, 1)));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    g.node("MatMul", {last, "W"}, {nth("mm", k)});
    g.node("Add", {nth("mm", k), "b"}, {nth("a", k)});
    last = nth("a", k);
  }
  g.output(last, ElemType::Float, {1, 8});
  const std::string opt = fused(g, "matmul_add", "matmul-add-gemm");
  EXPECT_EQ(test::count_ops(opt, "Gemm"), kCount);
  EXPECT_EQ(test::count_ops(opt, "MatMul") + test::count_ops(opt, "Add"), 0);
  auto out = test::run_plain(opt, {{"x", f32({1, 8}, {0, 1, 2, 3, 4, 5, 6, 7})}});
  EXPECT_EQ(floats_of(out[0]), std::vector<float>(8, 10003.5f));
}

// y_k = y_{k-1} Transpose(P), 9,999 times, P the permutation matrix with P[i][(i + 1) % 8] = 1:
// each product is y rotated left by one (reference loop below). With a 2-D y the pairs
// become Gemms (transpose-gemm), with a 3-D y FusedMatMuls (transpose-matmul).
TEST(LargeFusion, TransposeIntoGemmAndFusedMatMulTenThousandTimes) {
  constexpr int kCount = 9999;
  std::vector<float> p(64, 0);
  for (int i = 0; i < 8; ++i) p[i * 8 + (i + 1) % 8] = 1;
  std::vector<float> x = {0, 1, 2, 3, 4, 5, 6, 7}, want = x;
  for (int k = 0; k < kCount; ++k) {
    std::vector<float> next(8, 0);
    for (int j = 0; j < 8; ++j)  // (y P^T)[j] = sum_i y[i] P[j][i]
      for (int i = 0; i < 8; ++i) next[j] += want[i] * p[j * 8 + i];
    want = next;
  }
  for (const bool batched : {false, true}) {
    SCOPED_TRACE(batched);
    const test::Dims64 shape = batched ? test::Dims64{1, 1, 8} : test::Dims64{1, 8};
    GraphBuilder g("main");
    g.input("x", ElemType::Float, shape);
    g.initializer("P", f32({8, 8}, p));
    std::string last = "x";
    for (int k = 0; k < kCount; ++k) {
      g.node("Transpose", {"P"}, {nth("pt", k)});
      g.node("MatMul", {last, nth("pt", k)}, {nth("y", k)});
      last = nth("y", k);
    }
    g.output(last, ElemType::Float, shape);
    const std::string opt = fused(g, batched ? "fused_matmul" : "transpose_gemm",
                                  batched ? "transpose-matmul" : "transpose-gemm");
    EXPECT_EQ(test::count_ops(opt, batched ? "FusedMatMul" : "Gemm"), kCount);
    EXPECT_EQ(test::count_ops(opt, "Transpose") + test::count_ops(opt, "MatMul"), 0);
    EXPECT_EQ(floats_of(test::run_plain(opt, {{"x", f32(shape, x)}})[0]), want);
  }
}

// y_k = Relu(Conv(y_{k-1}, w = 1, bias 1)) 10,000 times on a 1x1x2x2 image: the first step
// takes [-3, -1, 0, 2] to [0, 0, 1, 3], each later one adds 1.
TEST(LargeFusion, ConvActivationFusesTenThousandPairs) {
  constexpr int kCount = 10000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 2, 2});
  g.initializer("w", f32({1, 1, 1, 1}, {1})).initializer("bias", f32({1}, {1}));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    g.node("Conv", {last, "w", "bias"}, {nth("c", k)});
    g.node("Relu", {nth("c", k)}, {nth("r", k)});
    last = nth("r", k);
  }
  g.output(last, ElemType::Float, {1, 1, 2, 2});
  const std::string opt = fused(g, "conv_relu", "conv-activation");
  EXPECT_EQ(test::count_ops(opt, "FusedConv"), kCount);
  EXPECT_EQ(test::count_ops(opt, "Conv") + test::count_ops(opt, "Relu"), 0);
  auto out = test::run_plain(opt, {{"x", f32({1, 1, 2, 2}, {-3, -1, 0, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{9999, 9999, 10000, 10002}));
}

// y_k = Add(BatchNormalization(Conv(y_{k-1}, w = 1)), 1) 5,000 times on a 1x1x2x2 image, the
// BatchNormalization adding 1 (scale 1, bias 1, mean 0, var 1, epsilon 0): conv-affine folds
// every chain into its Conv (one walk), and each step adds 2.
TEST(LargeFusion, ConvAffineFoldsThousandsOfChains) {
  constexpr int kCount = 5000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 2, 2});
  g.initializer("w", f32({1, 1, 1, 1}, {1}))
      .initializer("one", f32({1}, {1}))
      .initializer("zero", f32({1}, {0}));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    g.node("Conv", {last, "w"}, {nth("c", k)});
    test::set_float(
        g.node("BatchNormalization", {nth("c", k), "one", "one", "zero", "one"}, {nth("b", k)}),
        "epsilon", 0);
    g.node("Add", {nth("b", k), "one"}, {nth("a", k)});
    last = nth("a", k);
  }
  g.output(last, ElemType::Float, {1, 1, 2, 2});
  const std::string opt = fused(g, "conv_bn_add", "conv-affine");
  EXPECT_EQ(test::count_ops(opt, "Conv"), kCount);
  EXPECT_EQ(test::count_ops(opt, "BatchNormalization") + test::count_ops(opt, "Add"), 0);
  auto out = test::run_plain(opt, {{"x", f32({1, 1, 2, 2}, {-3, -1, 0, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{9997, 9999, 10000, 10002}));
}

// 3,400 erf Gelu subgraphs of x (x / sqrt 2, Erf, + 1, * x, * 0.5), summed by a chain of
// Adds: every one becomes a Gelu and y = 3400 gelu(x), gelu from the definition in double.
TEST(LargeFusion, GeluFusesThousandsOfSubgraphs) {
  constexpr int kCount = 3400;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {4});
  g.initializer("sqrt2", f32({}, {static_cast<float>(std::sqrt(2.0))}))
      .initializer("one", f32({}, {1}))
      .initializer("half", f32({}, {0.5f}));
  std::string sum;
  for (int k = 0; k < kCount; ++k) {
    g.node("Div", {"x", "sqrt2"}, {nth("d", k)});
    g.node("Erf", {nth("d", k)}, {nth("e", k)});
    g.node("Add", {nth("e", k), "one"}, {nth("a", k)});
    g.node("Mul", {"x", nth("a", k)}, {nth("m", k)});
    g.node("Mul", {nth("m", k), "half"}, {nth("g", k)});
    if (k > 0) g.node("Add", {sum, nth("g", k)}, {nth("s", k)});
    sum = k > 0 ? nth("s", k) : nth("g", k);
  }
  g.output(sum, ElemType::Float, {4});
  const std::string opt = fused(g, "gelu", "gelu");
  EXPECT_EQ(test::count_ops(opt, "Gelu"), kCount);
  EXPECT_EQ(test::count_ops(opt, "Erf") + test::count_ops(opt, "Mul"), 0);
  const std::vector<float> x = {-1, 0, 0.5f, 2};
  const std::vector<float> y = floats_of(test::run_plain(opt, {{"x", f32({4}, x)}})[0]);
  ASSERT_EQ(y.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const double want = kCount * 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0)));
    EXPECT_NEAR(y[i], want, 1e-4 * std::abs(want)) << i;
  }
}

}  // namespace
}  // namespace bough
