// conv-activation: golden before/after text, the cases where it must not fire, and fused
// models (FusedConv, computed in the tiled Conv kernel's epilogue) against the same models
// unfused and against a reference convolution loop, on random shapes at 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
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

// x = [1, -2, 3] (1 channel, 1-D), w = [1, 1], w2 = [1, -1], b = [0.5], kernel 2, no pads:
// Conv(x, w) = [1 - 2, -2 + 3] = [-1, 1]; + b = [-0.5, 1.5]; Conv(x, w2) = [3, -5].
// Fused: r1 = Relu(Conv(x, w, b)) = [0, 1.5]; l2 = LeakyRelu(Conv(x, w2), 0.5) = [3, -2.5];
// k3 = Clip(Conv(x, w, b), 0, 1) = [0, 1] with bounds from initializers; in the If's
// then-branch, t = Relu(Conv(x, w2)) = [3, 0]. Kept: s4 = Sigmoid(c4) where c4 is also a
// graph output; n5 = Relu(c5) where Neg also reads c5; k6 = Clip(c6, lo_in), its bound a
// graph input.
GraphBuilder activations_model() {
  GraphBuilder then_g("then_g");
  then_g.node("Conv", {"x", "w2"}, {"tc"});
  then_g.node("Relu", {"tc"}, {"tr"});
  then_g.output("tr", ElemType::Float, {1, 1, 2});
  GraphBuilder else_g("else_g");
  else_g.node("Neg", {"x"}, {"en"});
  else_g.output("en", ElemType::Float, {}, false);
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 3})
      .input("p", ElemType::Bool)
      .input("lo_in", ElemType::Float, {});
  g.initializer("w", f32({1, 1, 2}, {1, 1}))
      .initializer("w2", f32({1, 1, 2}, {1, -1}))
      .initializer("b", f32({1}, {0.5f}))
      .initializer("lo", f32({}, {0}))
      .initializer("hi", f32({}, {1}));
  g.node("Conv", {"x", "w", "b"}, {"c1"}, "conv1");
  g.node("Relu", {"c1"}, {"r1"});
  g.node("Conv", {"x", "w2"}, {"c2"});
  test::set_float(g.node("LeakyRelu", {"c2"}, {"l2"}), "alpha", 0.5f);
  g.node("Conv", {"x", "w", "b"}, {"c3"});
  g.node("Clip", {"c3", "lo", "hi"}, {"k3"});
  g.node("Conv", {"x", "w"}, {"c4"});
  g.node("Sigmoid", {"c4"}, {"s4"});
  g.node("Conv", {"x", "w"}, {"c5"});
  g.node("Relu", {"c5"}, {"n5"});
  g.node("Neg", {"c5"}, {"m5"});
  g.node("Conv", {"x", "w"}, {"c6"});
  g.node("Clip", {"c6", "lo_in"}, {"k6"});
  g.node("If", {"p"}, {"t"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  for (const char* out : {"r1", "l2", "k3", "s4", "c4", "n5", "m5", "k6", "t"})
    g.output(out, ElemType::Float, {}, false);
  return g;
}

TEST(PassGolden, ConvActivation) {
  std::string out = test::check_golden(activations_model(), "conv-activation",
                                       test::report_line("conv-activation", 4));
  EXPECT_EQ(test::count_ops(out, "FusedConv"), 4);
  EXPECT_EQ(test::count_ops(out, "Conv"), 3);  // c4, c5, c6
  auto y = test::run_plain(out, {{"x", f32({1, 1, 3}, {1, -2, 3})},
                                 {"p", test::boolean({}, {true})},
                                 {"lo_in", f32({}, {0})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{0, 1.5f}));
  EXPECT_EQ(floats_of(y[1]), (std::vector<float>{3, -2.5f}));
  EXPECT_EQ(floats_of(y[2]), (std::vector<float>{0, 1}));
  const float e = std::exp(1.0f);
  EXPECT_NEAR(floats_of(y[3])[0], 1 / (1 + e), 1e-6);
  EXPECT_NEAR(floats_of(y[3])[1], e / (1 + e), 1e-6);
  EXPECT_EQ(floats_of(y[4]), (std::vector<float>{-1, 1}));
  EXPECT_EQ(floats_of(y[5]), (std::vector<float>{0, 1}));
  EXPECT_EQ(floats_of(y[6]), (std::vector<float>{1, -1}));
  EXPECT_EQ(floats_of(y[7]), (std::vector<float>{0, 1}));
  EXPECT_EQ(floats_of(y[8]), (std::vector<float>{3, 0}));
}

// A double Conv stays a Conv (FusedConv is float only), as does a Conv read by the
// activation and a nested subgraph.
TEST(ConvActivation, LeavesDoubleConvsAndCapturedOutputs) {
  GraphBuilder g("main");
  g.input("x", ElemType::Double, {1, 1, 3});
  g.initializer("w",
                test::tensor_of<double>(ElemType::Double, {1, 1, 2}, [](int64_t) { return 1; }));
  g.node("Conv", {"x", "w"}, {"c"});
  g.node("Relu", {"c"}, {"r"});
  g.output("r", ElemType::Double, {}, false);
  EXPECT_EQ(test::count_ops(
                test::optimize_file(test::save_scratch(g, "conv_double"), {"conv-activation"}),
                "FusedConv"),
            0);
  GraphBuilder then_g("then_g");
  then_g.node("Neg", {"c"}, {"n"});
  then_g.output("n", ElemType::Float, {}, false);
  GraphBuilder else_g("else_g");
  else_g.node("Abs", {"c"}, {"a"});
  else_g.output("a", ElemType::Float, {}, false);
  GraphBuilder h("main");
  h.input("x", ElemType::Float, {1, 1, 3}).input("p", ElemType::Bool);
  h.initializer("w", f32({1, 1, 2}, {1, 1}));
  h.node("Conv", {"x", "w"}, {"c"});
  h.node("Relu", {"c"}, {"r"});
  h.node("If", {"p"}, {"q"});
  test::set_graph(h.graph_node_last(), "then_branch", then_g);
  test::set_graph(h.graph_node_last(), "else_branch", else_g);
  h.output("r", ElemType::Float, {}, false).output("q", ElemType::Float, {}, false);
  EXPECT_EQ(test::count_ops(
                test::optimize_file(test::save_scratch(h, "conv_captured"), {"conv-activation"}),
                "FusedConv"),
            0);
}

// A FusedConv whose activation bough does not have is refused by name, not run as a Conv.
// A model of one com.microsoft FusedConv over x [1, 1, 3], its attributes set by `attrs`,
// saved under a scratch folder named `name`; its path.
std::string fused_conv_model(const std::string& name,
                             const std::function<void(onnxpb::NodeProto&)>& attrs) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 3});
  g.initializer("w", f32({1, 1, 2}, {1, 1}));
  auto& n = g.node("FusedConv", {"x", "w"}, {"y"});
  n.set_domain("com.microsoft");
  attrs(n);
  g.output("y", ElemType::Float, {}, false);
  onnxpb::ModelProto m = test::make_model(g);
  auto* ms = m.add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  return test::save_model(m, test::scratch_dir(name), "m.onnx");
}

// Running the model at `path` fails with an error naming the model and holding `what`.
void expect_run_fails(const std::string& path, const std::string& what) {
  try {
    Session session(Model::load(path));
    session.run({{"x", Value(f32({1, 1, 3}, {1, 2, 3}))}});
    ADD_FAILURE() << "ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(ConvActivation, UnknownActivationIsUnsupported) {
  const std::string path = fused_conv_model(
      "fused_unknown", [](onnxpb::NodeProto& n) { test::set_string(n, "activation", "Tanh"); });
  expect_run_fails(path, "Tanh");
}

// bough's own `affine` takes a scale and a shift; any other count is refused, by the
// session and by the CLI (exit code 1: an invalid model).
TEST(ConvActivation, AffineOfOtherThanTwoFloatsIsRefused) {
  for (const std::vector<float>& affine : {std::vector<float>{2}, {2, 1, 0}}) {
    const std::string path = fused_conv_model("fused_affine", [&](onnxpb::NodeProto& n) {
      test::set_string(n, "activation", "Relu");
      test::set_floats(n, "affine", affine);
    });
    const std::string what =
        "affine takes 2 floats (scale, shift), got " + std::to_string(affine.size());
    expect_run_fails(path, what);
    std::string out;
    EXPECT_EQ(test::run_cli("run " + path + " -i x=@random", &out), 1) << out;
    EXPECT_NE(out.find(what), std::string::npos) << out;
  }
}

double activate(double v, const std::string& act, float p0, float p1) {
  if (act == "Relu") return std::max(v, 0.0);
  if (act == "LeakyRelu") return v < 0 ? p0 * v : v;
  if (act == "Clip") return std::min(std::max(v, double(p0)), double(p1));
  if (act == "HardSigmoid") return std::min(std::max(p0 * v + p1, 0.0), 1.0);
  if (act == "HardSwish") return v * std::min(std::max(v / 6 + 0.5, 0.0), 1.0);
  return 1 / (1 + std::exp(-v));  // Sigmoid
}

// Conv + activation at random ranks (1-3), groups, strides, dilations, pads, pointwise
// kernels and sizes up to several column tiles, the weights initializers: the `all` level
// fuses it into a FusedConv; the fused and unfused models at 1 and 2 threads match the
// reference loop.
TEST(Fusions, ConvActivationMatchesUnfusedOnRandomShapes) {
  test::Rng rng(1717);
  const char* acts[] = {"Relu", "LeakyRelu", "Clip", "Sigmoid", "HardSigmoid", "HardSwish"};
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE(trial);
    const std::string act = acts[trial % 6];
    const size_t rank = static_cast<size_t>(rng.uniform(1, 3));
    const int64_t groups = rng.uniform(1, 2), cg = rng.uniform(1, 9), mg = rng.uniform(2, 12);
    const int64_t N = rng.uniform(1, 2), C = groups * cg, M = groups * mg;
    const bool pointwise = rng.chance(0.25), big = rng.chance(0.3);
    test::Dims64 in, k, s, d, pad(2 * rank);
    for (size_t i = 0; i < rank; ++i) {
      k.push_back(pointwise ? 1 : rng.uniform(1, 3));
      s.push_back(pointwise ? 1 : rng.uniform(1, 2));
      d.push_back(pointwise ? 1 : rng.uniform(1, 2));
      const int64_t span = (k[i] - 1) * d[i] + 1;
      in.push_back(rng.uniform(span, big && rank < 3 ? (rank == 1 ? 3000 : 50) : 9));
      pad[i] = pointwise ? 0 : rng.uniform(0, 1);
      pad[rank + i] = pointwise ? 0 : rng.uniform(0, 1);
    }
    Dims x_shape{N, C}, w_shape{M, cg};
    for (size_t i = 0; i < rank; ++i) x_shape.push_back(in[i]), w_shape.push_back(k[i]);
    const Tensor x = test::random_floats(x_shape, rng), w = test::random_floats(w_shape, rng);
    const bool with_b = rng.chance(0.7);
    const Tensor b = test::random_floats(Dims{M}, rng);
    const float p0 = act == "Clip" ? -0.3f : 0.1f, p1 = 0.4f;
    GraphBuilder g("main");
    g.input("x", ElemType::Float, test::Dims64(x_shape.begin(), x_shape.end()));
    g.initializer("w", w);
    if (with_b) g.initializer("b", b);
    if (act == "Clip") g.initializer("lo", f32({}, {p0})).initializer("hi", f32({}, {p1}));
    auto& conv = g.node(
        "Conv",
        with_b ? std::vector<std::string>{"x", "w", "b"} : std::vector<std::string>{"x", "w"},
        {"c"});
    test::set_int(conv, "group", groups);
    test::set_ints(conv, "strides", s);
    test::set_ints(conv, "dilations", d);
    test::set_ints(conv, "pads", pad);
    auto& a = g.node(
        act,
        act == "Clip" ? std::vector<std::string>{"c", "lo", "hi"} : std::vector<std::string>{"c"},
        {"y"});
    if (act == "LeakyRelu" || act == "HardSigmoid") test::set_float(a, "alpha", p0);
    if (act == "HardSigmoid") test::set_float(a, "beta", p1);
    g.output("y", ElemType::Float, {}, false);
    const std::string path = test::save_scratch(g, "conv_activation_random");
    EXPECT_EQ(test::count_ops(test::optimize_file(path, {"conv-activation"}), "FusedConv"), 1);
    test::Dims64 out;
    const std::vector<double> sums = test::reference_conv(
        floats_of(x), floats_of(w), with_b ? floats_of(b) : std::vector<float>{}, N, C, M, groups,
        in, k, s, d, pad, out);
    const int64_t taps =
        cg * static_cast<int64_t>(floats_of(w).size() / static_cast<size_t>(M * cg));
    for (Optimization level : {Optimization::basic, Optimization::all})
      for (int threads : {1, 2}) {
        const std::vector<float> got = test::run_conv_model(path, x, level, threads);
        ASSERT_EQ(got.size(), sums.size());
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_NEAR(got[i], activate(sums[i], act, p0, p1), 1e-5 * (1 + taps))
              << "at " << i << ", threads " << threads << ", level " << static_cast<int>(level);
      }
  }
}

// The same values bit for bit, or NaN at the same places.
::testing::AssertionResult same_or_both_nan(const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) return ::testing::AssertionFailure() << "shapes differ";
  const std::vector<float> va = floats_of(a), vb = floats_of(b);
  for (size_t i = 0; i < va.size(); ++i) {
    const bool nan = std::isnan(va[i]) && std::isnan(vb[i]);
    if (!nan && std::memcmp(&va[i], &vb[i], sizeof(float)) != 0)
      return ::testing::AssertionFailure() << "element " << i << ": " << va[i] << " and " << vb[i];
  }
  return ::testing::AssertionSuccess();
}

// A random image of `shape` in [-4, 4] with a NaN, both infinities and 1e30 at the given
// places.
Tensor image_with_nonfinite(const Dims& shape, test::Rng& rng, const std::vector<size_t>& at) {
  Tensor x = test::random_floats(shape, rng, -4, 4);
  float* xs = x.data<float>();
  xs[at[0]] = std::numeric_limits<float>::quiet_NaN();
  xs[at[1]] = std::numeric_limits<float>::infinity();
  xs[at[2]] = -std::numeric_limits<float>::infinity();
  xs[at[3]] = 1e30f;
  return x;
}

// Runs the model at `path` and its optimized form at `opt` on x; expects the same outputs bit
// for bit (or NaN at the same places), and returns the optimized model's.
std::vector<Tensor> expect_same_outputs(const std::string& path, const std::string& opt,
                                        const Tensor& x) {
  const auto want = test::run_plain(path, {{"x", x}});
  auto got = test::run_plain(opt, {{"x", x}});
  EXPECT_EQ(got.size(), want.size());
  for (size_t i = 0; i < std::min(got.size(), want.size()); ++i)
    EXPECT_TRUE(same_or_both_nan(got[i], want[i])) << "output " << i;
  return got;
}

// Appends x * Clip(x + 3, 0, 6) / 6 on `x` as paddle2onnx writes it (Add, Clip, Mul, Div) to
// `out`, with the constants named and the operands in the order given.
void clip_hard_swish(GraphBuilder& g, const std::string& x, const std::string& out,
                     const std::string& three, const std::string& hi, const std::string& six,
                     bool swapped) {
  g.node("Add", swapped ? std::vector<std::string>{three, x} : std::vector<std::string>{x, three},
         {out + "_a"});
  g.node("Clip", {out + "_a", "zero", hi}, {out + "_c"});
  g.node(
      "Mul",
      swapped ? std::vector<std::string>{out + "_c", x} : std::vector<std::string>{x, out + "_c"},
      {out + "_m"});
  g.node("Div", {out + "_m", six}, {out});
}

// HardSwish (the operator), HardSigmoid, and the HardSwish motif in both operand orders fuse
// into FusedConvs whose outputs are those of the unfused nodes bit for bit, on an image with
// NaN, infinities and values on both sides of the bends (-3, 3). Kept: the motif whose Div
// constant has more dimensions than the Conv's output (fusing would change the output's
// shape), the one whose Clip stops at 5, and the one whose Conv output is a graph output.
TEST(ConvActivation, HardSwishAndHardSigmoidFuseExactly) {
  test::Rng rng(5);
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 2, 5, 5});
  g.initializer("w", test::random_floats(Dims{3, 2, 3, 3}, rng, -2, 2))
      .initializer("b", test::random_floats(Dims{3}, rng))
      .initializer("three", f32({}, {3}))
      .initializer("zero", f32({}, {0}))
      .initializer("six", f32({1}, {6}))
      .initializer("five", f32({}, {5}))
      .initializer("six5", f32({1, 1, 1, 1, 1}, {6}));
  for (int i = 1; i <= 7; ++i) {
    auto& conv = g.node("Conv", {"x", "w", "b"}, {"c" + std::to_string(i)});
    test::set_ints(conv, "pads", {1, 1, 1, 1});
  }
  g.node("HardSwish", {"c1"}, {"h1"});
  auto& hs = g.node("HardSigmoid", {"c2"}, {"h2"});
  test::set_float(hs, "alpha", 0.3f);
  test::set_float(hs, "beta", 0.4f);
  clip_hard_swish(g, "c3", "h3", "three", "six", "six", false);
  clip_hard_swish(g, "c4", "h4", "three", "six", "six", true);
  clip_hard_swish(g, "c5", "h5", "three", "six", "six5", false);
  clip_hard_swish(g, "c6", "h6", "three", "five", "six", false);
  clip_hard_swish(g, "c7", "h7", "three", "six", "six", false);
  for (const char* out : {"h1", "h2", "h3", "h4", "h5", "h6", "h7", "c7"})
    g.output(out, ElemType::Float, {}, false);
  const std::string path = test::save_scratch(g, "conv_hard_swish");
  const std::string opt = test::optimize_file(path, {"conv-activation"});
  EXPECT_EQ(test::count_ops(opt, "FusedConv"), 4);
  EXPECT_EQ(test::count_ops(opt, "Conv"), 3);
  EXPECT_EQ(test::count_ops(opt, "Div"), 3);
  const auto got =
      expect_same_outputs(path, opt, image_with_nonfinite(Dims{1, 2, 5, 5}, rng, {3, 17, 31, 40}));
  ASSERT_EQ(got.size(), 8u);
  EXPECT_EQ(got[4].shape(), (Dims{1, 1, 3, 5, 5}));
  bool any_nan = false;
  for (float v : floats_of(got[0])) any_nan = any_nan || std::isnan(v);
  EXPECT_TRUE(any_nan);
}

// A scalar Mul and Add after the activation (PaddleOCR's learnable affine) fuse as the
// FusedConv's affine, on each Conv path (direct, Winograd, 1x1, depthwise, the tiles at
// stride 3, few positions) with the activations applied in registers (LeakyRelu: applied
// twice it would scale negatives twice) and after the store (HardSwish); the outputs are
// those of the unfused nodes bit for bit, on an image with NaN, infinities and large values.
// Kept: a Mul by one value per channel (its activation still fuses), and an Add whose input
// another node reads too (the Mul before it still fuses).
TEST(ConvActivation, ScalarMulAndAddAfterTheActivationFuseExactly) {
  test::Rng rng(34);
  struct Layer {
    const char* path;
    int64_t C, M, k, stride, group;
    const char* act;
    const char* mul;  // the Mul's constant, or "" for none
    const char* add;
  };
  const Layer layers[] = {
      {"direct", 4, 6, 3, 1, 1, "LeakyRelu", "s", "t"},
      {"winograd", 16, 4, 3, 1, 1, "HardSwish", "s1", "t"},
      {"pointwise", 16, 8, 1, 1, 1, "Relu", "s", ""},
      {"depthwise", 8, 8, 3, 1, 8, "HardSwish", "", "t1"},
      {"tiles", 4, 6, 3, 3, 1, "Clip", "s", "t"},
      {"channel_scale", 4, 6, 3, 1, 1, "Relu", "per_channel", "t"},
      {"shared_add_input", 4, 6, 3, 1, 1, "Sigmoid", "s", "t"},
  };
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 16, 9, 9});
  g.initializer("s", f32({}, {-0.75f}))
      .initializer("s1", f32({1}, {1.5f}))
      .initializer("t", f32({}, {0.25f}))
      .initializer("t1", f32({1, 1, 1, 1}, {-2.0f}))
      .initializer("lo", f32({}, {-1.0f}))
      .initializer("hi", f32({}, {2.0f}))
      .initializer("per_channel", test::random_floats(Dims{1, 6, 1, 1}, rng));
  std::vector<std::string> outputs;
  for (const Layer& l : layers) {
    const std::string p = l.path;
    // The first C channels of x, sliced by a 1x1 Conv with a 0/1 filter (exact).
    std::vector<float> pick(static_cast<size_t>(l.C * 16), 0.0f);
    for (int64_t c = 0; c < l.C; ++c) pick[static_cast<size_t>(c * 16 + c)] = 1.0f;
    g.initializer(p + "_pick", f32({l.C, 16, 1, 1}, pick));
    g.node("Conv", {"x", p + "_pick"}, {p + "_x"});
    g.initializer(p + "_w", test::random_floats(Dims{l.M, l.C / l.group, l.k, l.k}, rng, -1, 1))
        .initializer(p + "_b", test::random_floats(Dims{l.M}, rng));
    auto& conv = g.node("Conv", {p + "_x", p + "_w", p + "_b"}, {p + "_c"});
    test::set_ints(conv, "pads", {l.k / 2, l.k / 2, l.k / 2, l.k / 2});
    test::set_ints(conv, "strides", {l.stride, l.stride});
    test::set_int(conv, "group", l.group);
    const std::string act = l.act;
    auto& a = g.node(act,
                     act == "Clip" ? std::vector<std::string>{p + "_c", "lo", "hi"}
                                   : std::vector<std::string>{p + "_c"},
                     {p + "_a"});
    if (act == "LeakyRelu") test::set_float(a, "alpha", 0.125f);
    std::string y = p + "_a";
    if (*l.mul) {
      g.node("Mul", {std::string(l.mul), y}, {p + "_m"});  // the constant first
      y = p + "_m";
    }
    if (*l.add) {
      g.node("Add", {y, std::string(l.add)}, {p + "_y"});
      if (p == "shared_add_input") outputs.push_back(y);
      y = p + "_y";
    }
    outputs.push_back(y);
  }
  // Few positions: 16 filters over a 1 x 4 map, from x's first row of four columns.
  g.initializer("few_w", test::random_floats(Dims{16, 16, 1, 3}, rng, -1, 1));
  auto& few = g.node("Conv", {"x", "few_w"}, {"few_c"});
  test::set_ints(few, "strides", {9, 2});
  g.node("Relu", {"few_c"}, {"few_a"});
  g.node("Mul", {"few_a", "s"}, {"few_m"});
  g.node("Add", {"t", "few_m"}, {"few_y"});
  outputs.push_back("few_y");
  for (const std::string& out : outputs) g.output(out, ElemType::Float, {}, false);
  const std::string path = test::save_scratch(g, "conv_affine_after_activation");
  const std::string opt = test::optimize_file(path, {"conv-activation"});
  EXPECT_EQ(test::count_ops(opt, "FusedConv"), 8);
  // Left: the per-channel Mul and the Add after it, and the Add whose input is also a graph
  // output.
  EXPECT_EQ(test::count_ops(opt, "Mul"), 1);
  EXPECT_EQ(test::count_ops(opt, "Add"), 2);
  expect_same_outputs(path, opt, image_with_nonfinite(Dims{1, 16, 9, 9}, rng, {5, 90, 200, 300}));
}

}  // namespace
}  // namespace bough
