// conv-affine: golden before/after text with values worked out by hand, the cases where it must
// not fold, and random Conv + BatchNormalization / Mul / Add chains folded against the
// reference convolution loop and the unfolded model (NaN and infinities where they were), at
// 1 and 2 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "bough/session.h"
#include "passes/conv_reference.h"
#include "passes/pass_test_util.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

constexpr float kInf = std::numeric_limits<float>::infinity();

// x = [1, -2, 3] (1-D), w = [[1, 1], [1, -1]] (2 output channels, kernel 2), b = [0.5, -1]:
// Conv(x, w) = [[-1, 1], [3, -5]], + b = [[-0.5, 1.5], [2, -6]].
// BatchNormalization (epsilon 0) scale [2, 1], bias [1, 0], mean [0.5, 2], var [4, 0.25]:
// s = scale / sqrt(var) = [1, 2], t = bias - mean * s = [0.5, -4].
// Folded chain: bn1 = [[0, 2], [0, -16]]; Mul by [[3], [-1]] = [[0, 6], [0, 16]]; Add 0.25
// = [[0.25, 6.25], [0.25, 16.25]]. Kept: bn2 of c2 = Conv(x, w) (also a graph output) =
// [[-0.5, 1.5], [2, -14]]; Mul by [1, 2, 2] (not per channel) = [[-1, 2], [9, -20]]; Add of a
// rank-4 constant (would change the rank) = [[[0, 2], [5, -3]]]; a BatchNormalization whose
// scale is a graph input (as bn2); Mul by [inf, 1] (not finite) = [[-inf, inf], [3, -5]].
GraphBuilder affine_model() {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 3}).input("sc", ElemType::Float, {2});
  g.initializer("w", f32({2, 1, 2}, {1, 1, 1, -1}))
      .initializer("b", f32({2}, {0.5f, -1}))
      .initializer("scale", f32({2}, {2, 1}))
      .initializer("bias", f32({2}, {1, 0}))
      .initializer("mean", f32({2}, {0.5f, 2}))
      .initializer("var", f32({2}, {4, 0.25f}))
      .initializer("m1", f32({2, 1}, {3, -1}))
      .initializer("a1", f32({}, {0.25f}))
      .initializer("k3", f32({1, 2, 2}, {1, 2, 3, 4}))
      .initializer("k4", f32({1, 1, 2, 1}, {1, 2}))
      .initializer("k6", f32({2, 1}, {kInf, 1}));
  g.node("Conv", {"x", "w", "b"}, {"c1"}, "conv1");
  test::set_float(g.node("BatchNormalization", {"c1", "scale", "bias", "mean", "var"}, {"bn1"}),
                  "epsilon", 0);
  g.node("Mul", {"m1", "bn1"}, {"mu1"});
  g.node("Add", {"mu1", "a1"}, {"ad1"});
  g.node("Conv", {"x", "w"}, {"c2"});
  test::set_float(g.node("BatchNormalization", {"c2", "scale", "bias", "mean", "var"}, {"bn2"}),
                  "epsilon", 0);
  g.node("Conv", {"x", "w"}, {"c3"});
  g.node("Mul", {"c3", "k3"}, {"mu3"});
  g.node("Conv", {"x", "w"}, {"c4"});
  g.node("Add", {"c4", "k4"}, {"ad4"});
  g.node("Conv", {"x", "w"}, {"c5"});
  test::set_float(g.node("BatchNormalization", {"c5", "sc", "bias", "mean", "var"}, {"bn5"}),
                  "epsilon", 0);
  g.node("Conv", {"x", "w"}, {"c6"});
  g.node("Mul", {"c6", "k6"}, {"mu6"});
  for (const char* out : {"ad1", "bn2", "c2", "mu3", "ad4", "bn5", "mu6"})
    g.output(out, ElemType::Float, {}, false);
  return g;
}

TEST(PassGolden, ConvAffine) {
  const std::string out =
      test::check_golden(affine_model(), "conv-affine", test::report_line("conv-affine", 3));
  EXPECT_EQ(test::count_ops(out, "Conv"), 6);
  EXPECT_EQ(test::count_ops(out, "BatchNormalization"), 2);
  EXPECT_EQ(test::count_ops(out, "Mul"), 2);
  EXPECT_EQ(test::count_ops(out, "Add"), 1);
  const auto y =
      test::run_plain(out, {{"x", f32({1, 1, 3}, {1, -2, 3})}, {"sc", f32({2}, {2, 1})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{0.25f, 6.25f, 0.25f, 16.25f}));
  EXPECT_EQ(floats_of(y[1]), (std::vector<float>{-0.5f, 1.5f, 2, -14}));
  EXPECT_EQ(floats_of(y[2]), (std::vector<float>{-1, 1, 3, -5}));
  EXPECT_EQ(floats_of(y[3]), (std::vector<float>{-1, 2, 9, -20}));
  EXPECT_EQ(floats_of(y[4]), (std::vector<float>{0, 2, 5, -3}));
  EXPECT_EQ(y[4].shape(), (Dims{1, 1, 2, 2}));
  EXPECT_EQ(floats_of(y[5]), (std::vector<float>{-0.5f, 1.5f, 2, -14}));
  EXPECT_EQ(floats_of(y[6]), (std::vector<float>{-kInf, kInf, 3, -5}));
}

// A BatchNormalization in training mode (opset 15: training_mode = 1) is not an affine map of
// constants: it stays.
TEST(ConvAffine, LeavesTrainingModeBatchNormalization) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 3});
  g.initializer("w", f32({2, 1, 2}, {1, 1, 1, -1}))
      .initializer("scale", f32({2}, {2, 1}))
      .initializer("bias", f32({2}, {1, 0}))
      .initializer("mean", f32({2}, {0.5f, 2}))
      .initializer("var", f32({2}, {4, 0.25f}));
  g.node("Conv", {"x", "w"}, {"c"});
  test::set_int(g.node("BatchNormalization", {"c", "scale", "bias", "mean", "var"}, {"y"}),
                "training_mode", 1);
  g.output("y", ElemType::Float, {}, false);
  EXPECT_EQ(test::count_ops(
                test::optimize_file(test::save_scratch(g, "conv_bn_training"), {"conv-affine"}),
                "BatchNormalization"),
            1);
}

// One step of a random chain after a Conv of M channels and output rank r: its node, its
// constants, and what it does to each channel (s, t), worked out here independently.
struct Step {
  std::string op;
  std::vector<double> s, t;
};

Step add_step(GraphBuilder& g, test::Rng& rng, int i, int64_t M, size_t r, const std::string& in,
              const std::string& out) {
  const std::string k = "k" + std::to_string(i);
  Step step;
  const int kind = static_cast<int>(rng.uniform(0, 2));
  if (kind == 0) {
    step.op = "BatchNormalization";
    std::vector<float> scale, bias, mean, var;
    for (int64_t m = 0; m < M; ++m) {
      scale.push_back(static_cast<float>(rng.real(-2, 2)));
      bias.push_back(static_cast<float>(rng.real(-1, 1)));
      mean.push_back(static_cast<float>(rng.real(-1, 1)));
      var.push_back(static_cast<float>(rng.real(0.1, 3)));
      const double s = double(scale.back()) / std::sqrt(double(var.back()) + double(1e-3f));
      step.s.push_back(s);
      step.t.push_back(bias.back() - mean.back() * s);
    }
    g.initializer(k + "s", f32({M}, scale))
        .initializer(k + "b", f32({M}, bias))
        .initializer(k + "m", f32({M}, mean))
        .initializer(k + "v", f32({M}, var));
    test::set_float(g.node(step.op, {in, k + "s", k + "b", k + "m", k + "v"}, {out}), "epsilon",
                    1e-3f);
    return step;
  }
  step.op = kind == 1 ? "Mul" : "Add";
  // The constant: one value, [M, 1...] or [1, M, 1...] (as many trailing 1s as spatial axes).
  const int form = static_cast<int>(rng.uniform(0, 2));
  const int64_t n = form == 0 ? 1 : M;
  std::vector<float> c;
  for (int64_t m = 0; m < n; ++m) c.push_back(static_cast<float>(rng.real(-2, 2)));
  test::Dims64 shape;
  if (form == 1) shape.push_back(M);
  if (form == 2) shape = {1, M};
  if (form != 0) shape.resize(r - (form == 1 ? 1 : 0), 1);
  if (form == 1) shape[0] = M;
  g.initializer(k, f32(shape, c));
  const bool swap = rng.chance(0.5);
  g.node(step.op, swap ? std::vector<std::string>{k, in} : std::vector<std::string>{in, k}, {out});
  for (int64_t m = 0; m < M; ++m) {
    const double v = c[static_cast<size_t>(n == 1 ? 0 : m)];
    step.s.push_back(step.op == "Mul" ? v : 1.0);
    step.t.push_back(step.op == "Mul" ? 0.0 : v);
  }
  return step;
}

// Conv at random ranks (1-2), groups, strides, pads, with and without B, then a chain of 1-3
// BatchNormalization / per-channel Mul / Add steps: the `all` level folds the chain into the
// Conv; folded (all) and unfolded (basic) at 1 and 2 threads match the reference loop with the
// chain applied in double. With a NaN and an infinity in the image, the folded model has NaN
// exactly where the unfolded one has, and the same infinities.
TEST(Fusions, ConvAffineMatchesUnfoldedOnRandomChains) {
  test::Rng rng(3434);
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE(trial);
    const size_t rank = static_cast<size_t>(rng.uniform(1, 2));
    const int64_t groups = rng.uniform(1, 3), cg = rng.uniform(1, 4), mg = rng.uniform(1, 5);
    const int64_t N = rng.uniform(1, 2), C = groups * cg, M = groups * mg;
    test::Dims64 in, k, s, d(rank, 1), pad(2 * rank);
    for (size_t i = 0; i < rank; ++i) {
      k.push_back(rng.uniform(1, 5));
      s.push_back(rng.uniform(1, 2));
      in.push_back(rng.uniform(k[i], 12));
      pad[i] = pad[rank + i] = k[i] / 2;
    }
    Dims x_shape{N, C}, w_shape{M, cg};
    for (size_t i = 0; i < rank; ++i) x_shape.push_back(in[i]), w_shape.push_back(k[i]);
    Tensor x = test::random_floats(x_shape, rng);
    const Tensor w = test::random_floats(w_shape, rng), b = test::random_floats(Dims{M}, rng);
    const bool with_b = rng.chance(0.5);
    GraphBuilder g("main");
    g.input("x", ElemType::Float, test::Dims64(x_shape.begin(), x_shape.end()));
    g.initializer("w", w);
    if (with_b) g.initializer("b", b);
    auto& conv = g.node(
        "Conv",
        with_b ? std::vector<std::string>{"x", "w", "b"} : std::vector<std::string>{"x", "w"},
        {"v0"});
    test::set_int(conv, "group", groups);
    test::set_ints(conv, "strides", s);
    test::set_ints(conv, "pads", pad);
    const int steps = static_cast<int>(rng.uniform(1, 3));
    std::vector<Step> chain;
    for (int i = 0; i < steps; ++i)
      chain.push_back(
          add_step(g, rng, i, M, rank + 2, "v" + std::to_string(i), "v" + std::to_string(i + 1)));
    g.output("v" + std::to_string(steps), ElemType::Float, {}, false);
    const std::string path = test::save_scratch(g, "conv_affine_random");
    const std::string opt = test::optimize_file(path, {"conv-affine", "dead-code"});
    EXPECT_EQ(test::count_ops(opt, "Conv"), 1);
    for (const char* op : {"BatchNormalization", "Mul", "Add"})
      EXPECT_EQ(test::count_ops(opt, op), 0);
    test::Dims64 out;
    const std::vector<double> sums = test::reference_conv(
        floats_of(x), floats_of(w), with_b ? floats_of(b) : std::vector<float>{}, N, C, M, groups,
        in, k, s, d, pad, out);
    int64_t P = 1;
    for (int64_t o : out) P *= o;
    std::vector<double> want(sums);
    for (size_t i = 0; i < want.size(); ++i) {
      const size_t m = static_cast<size_t>((static_cast<int64_t>(i) / P) % M);
      for (const Step& st : chain) want[i] = want[i] * st.s[m] + st.t[m];
    }
    // Float rounding: relative to the largest magnitude the chain reaches (|x|, |w|, |b| <= 1).
    double bound =
        1.0 + cg * static_cast<double>(floats_of(w).size()) / static_cast<double>(M * cg);
    for (const Step& st : chain) {
      double smax = 0, tmax = 0;
      for (size_t m = 0; m < st.s.size(); ++m)
        smax = std::max(smax, std::abs(st.s[m])), tmax = std::max(tmax, std::abs(st.t[m]));
      bound = bound * std::max(1.0, smax) + tmax;
    }
    for (Optimization level : {Optimization::basic, Optimization::all})
      for (int threads : {1, 2}) {
        const std::vector<float> got = test::run_conv_model(path, x, level, threads);
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_NEAR(got[i], want[i], 1e-5 * bound)
              << "at " << i << ", threads " << threads << ", level " << static_cast<int>(level);
      }
    // Non-finite images: a NaN and an infinity.
    float* xs = x.data<float>();
    xs[0] = std::numeric_limits<float>::quiet_NaN();
    xs[x.numel() - 1] = kInf;
    std::vector<std::vector<float>> runs;
    for (Optimization level : {Optimization::basic, Optimization::all}) {
      SessionOptions options;
      options.optimization = level;
      Session session(Model::load(path), options);
      runs.push_back(floats_of(session.run({{"x", Value(x)}})[0].second.tensor()));
    }
    for (size_t i = 0; i < runs[0].size(); ++i) {
      ASSERT_EQ(std::isnan(runs[0][i]), std::isnan(runs[1][i])) << "at " << i;
      if (std::isinf(runs[0][i])) {
        ASSERT_EQ(runs[0][i], runs[1][i]) << "at " << i;
      }
    }
  }
}

}  // namespace
}  // namespace bough
