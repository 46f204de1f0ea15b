// A PP-LCNet block as paddle2onnx writes it (depthwise Conv, BatchNormalization, the HardSwish
// motif, a squeeze-excitation block, a pointwise Conv with a constant per-channel Mul and Add,
// BatchNormalization, HardSwish, nearest Resize x2), built with the model builder and saved as
// a file: after conv-affine and conv-activation no BatchNormalization, Mul/Add constant,
// HardSwish, HardSigmoid or motif node is left (four FusedConvs), and the optimized model's
// output equals the unoptimized run's at 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>

#include "bough/session.h"
#include "passes/conv_reference.h"
#include "passes/pass_test_util.h"
#include "reference.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

void batch_norm(GraphBuilder& g, test::Rng& rng, const std::string& in, const std::string& out,
                int64_t c) {
  g.initializer(out + "_s", test::random_floats(Dims{c}, rng, 0.5, 1.5))
      .initializer(out + "_b", test::random_floats(Dims{c}, rng, -0.2, 0.2))
      .initializer(out + "_m", test::random_floats(Dims{c}, rng, -0.2, 0.2))
      .initializer(out + "_v", test::random_floats(Dims{c}, rng, 0.5, 1.5));
  g.node("BatchNormalization", {in, out + "_s", out + "_b", out + "_m", out + "_v"}, {out});
}

GraphBuilder lcnet_block(test::Rng& rng) {
  const int64_t C = 8, M = 12;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, C, 12, 16});
  g.initializer("dw_w", test::random_floats(Dims{C, 1, 3, 3}, rng, -0.5, 0.5))
      .initializer("three", f32({}, {3}))
      .initializer("zero", f32({}, {0}))
      .initializer("six", f32({}, {6}))
      .initializer("se1_w", test::random_floats(Dims{C / 4, C, 1, 1}, rng))
      .initializer("se1_b", test::random_floats(Dims{C / 4}, rng))
      .initializer("se2_w", test::random_floats(Dims{C, C / 4, 1, 1}, rng))
      .initializer("se2_b", test::random_floats(Dims{C}, rng))
      .initializer("pw_w", test::random_floats(Dims{M, C, 1, 1}, rng, -0.5, 0.5))
      .initializer("ch_scale", test::random_floats(Dims{M, 1, 1}, rng, 0.5, 1.5))
      .initializer("ch_shift", test::random_floats(Dims{1, M, 1, 1}, rng, -0.1, 0.1))
      .initializer("roi", f32({0}, {}))
      .initializer("scales", f32({4}, {1, 1, 2, 2}));
  auto& dw = g.node("Conv", {"x", "dw_w"}, {"dw"});
  test::set_int(dw, "group", C);
  test::set_ints(dw, "pads", {1, 1, 1, 1});
  batch_norm(g, rng, "dw", "dw_bn", C);
  g.node("Add", {"dw_bn", "three"}, {"hs_a"});
  g.node("Clip", {"hs_a", "zero", "six"}, {"hs_c"});
  g.node("Mul", {"dw_bn", "hs_c"}, {"hs_m"});
  g.node("Div", {"hs_m", "six"}, {"hs"});
  g.node("GlobalAveragePool", {"hs"}, {"se_p"});
  g.node("Conv", {"se_p", "se1_w", "se1_b"}, {"se1"});
  g.node("Relu", {"se1"}, {"se1_r"});
  g.node("Conv", {"se1_r", "se2_w", "se2_b"}, {"se2"});
  g.node("HardSigmoid", {"se2"}, {"se_s"});
  g.node("Mul", {"hs", "se_s"}, {"se"});
  g.node("Conv", {"se", "pw_w"}, {"pw"});
  g.node("Mul", {"pw", "ch_scale"}, {"pw_m"});
  g.node("Add", {"ch_shift", "pw_m"}, {"pw_a"});
  batch_norm(g, rng, "pw_a", "pw_bn", M);
  g.node("HardSwish", {"pw_bn"}, {"pw_hs"});
  auto& up = g.node("Resize", {"pw_hs", "roi", "scales"}, {"y"});
  test::set_string(up, "mode", "nearest");
  test::set_string(up, "coordinate_transformation_mode", "asymmetric");
  test::set_string(up, "nearest_mode", "floor");
  g.output("y", ElemType::Float, {1, M, 24, 32});
  return g;
}

TEST(Fusions, LcnetBlockFoldsAndFusesWithTheSameOutput) {
  test::Rng rng(4242);
  const std::string path = test::save_scratch(lcnet_block(rng), "lcnet_block");
  const std::string opt =
      test::optimize_file(path, {"conv-affine", "conv-activation", "dead-code"});
  EXPECT_EQ(test::count_ops(opt, "FusedConv"), 4);
  EXPECT_EQ(test::count_ops(opt, "Conv"), 0);
  for (const char* op : {"BatchNormalization", "HardSwish", "HardSigmoid", "Clip", "Div", "Add"})
    EXPECT_EQ(test::count_ops(opt, op), 0) << op;
  EXPECT_EQ(test::count_ops(opt, "Mul"), 1);  // the squeeze-excitation's
  const Tensor x = test::random_floats(Dims{1, 8, 12, 16}, rng, -3, 3);
  const std::vector<float> want = floats_of(test::run_plain(path, {{"x", x}})[0]);
  for (int threads : {1, 2}) {
    const std::vector<float> got = test::run_conv_model(path, x, Optimization::all, threads);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_NEAR(got[i], want[i], 1e-5 * (1 + std::abs(want[i])))
          << "at " << i << ", threads " << threads;
  }
}

}  // namespace
}  // namespace bough
