// gelu: golden before/after text, the cases where it must not fire, and the fused models
// against Gelu computed here in double (erf and tanh forms) and against the unfused models,
// at 1 and 2 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>

#include "bough/session.h"
#include "passes/pass_test_util.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

double gelu_erf(double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh(double x) {
  return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
}

// The constants the subgraphs use, as exporters write them (float).
void add_constants(GraphBuilder& g) {
  g.initializer("sqrt2", f32({}, {static_cast<float>(std::sqrt(2.0))}))
      .initializer("inv_sqrt2", f32({}, {static_cast<float>(1 / std::sqrt(2.0))}))
      .initializer("half", f32({}, {0.5f}))
      .initializer("one", f32({}, {1.0f}))
      .initializer("two", f32({}, {2.0f}))
      .initializer("three", f32({}, {3.0f}))
      .initializer("k", f32({}, {static_cast<float>(std::sqrt(2 / M_PI))}))
      .initializer("c", f32({}, {0.044715f}));
}

// torch's export of the erf Gelu of x: out = (x * (1 + Erf(x / sqrt2))) * 0.5, its values
// d, e, a, m suffixed with `p`; the last Mul named `root`.
void erf_gelu(GraphBuilder& g, const std::string& p, const std::string& out,
              const std::string& root = "") {
  g.node("Div", {"x", "sqrt2"}, {"d" + p});
  g.node("Erf", {"d" + p}, {"e" + p});
  g.node("Add", {"e" + p, "one"}, {"a" + p});
  g.node("Mul", {"x", "a" + p}, {"m" + p});
  g.node("Mul", {"m" + p, "half"}, {out}, root);
}

// GPT-2's tanh Gelu of x: out = (x * 0.5) * (1 + Tanh((x + Pow(x, 3) * c) * k)), its values
// suffixed with `p`.
void tanh_gelu(GraphBuilder& g, const std::string& p, const std::string& out) {
  g.node("Pow", {"x", "three"}, {"p" + p});
  g.node("Mul", {"p" + p, "c"}, {"c" + p});
  g.node("Add", {"x", "c" + p}, {"i" + p});
  g.node("Mul", {"i" + p, "k"}, {"s" + p});
  g.node("Tanh", {"s" + p}, {"t" + p});
  g.node("Add", {"t" + p, "one"}, {"a" + p});
  g.node("Mul", {"x", "half"}, {"h" + p});
  g.node("Mul", {"h" + p, "a" + p}, {out});
}

// Fused: g1, torch's export, (x * (1 + Erf(x / sqrt2))) * 0.5; g2, BERT's, (x * 0.5) *
// (1 + Erf(x * (1/sqrt2))); g3, GPT-2's, (x * 0.5) * (1 + Tanh((x + Pow(x, 3) * c) * k));
// g4 the same with x * (x * x), every operand order flipped; and g1's form in an If's
// then-branch on the outer x. Kept: g5, whose Erf output is also a graph output; g6, x / 2
// instead of x / sqrt2.
GraphBuilder gelu_model() {
  GraphBuilder then_g("then_g");
  erf_gelu(then_g, "t", "tg");
  then_g.output("tg", ElemType::Float, {2, 3});
  GraphBuilder else_g("else_g");
  else_g.node("Neg", {"x"}, {"en"});
  else_g.output("en", ElemType::Float, {2, 3});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3}).input("p", ElemType::Bool);
  add_constants(g);
  erf_gelu(g, "1", "g1", "gelu1");
  g.node("Mul", {"x", "half"}, {"h2"});
  g.node("Mul", {"x", "inv_sqrt2"}, {"d2"});
  g.node("Erf", {"d2"}, {"e2"});
  g.node("Add", {"one", "e2"}, {"a2"});
  g.node("Mul", {"h2", "a2"}, {"g2"});
  tanh_gelu(g, "3", "g3");
  g.node("Mul", {"x", "x"}, {"q4"});
  g.node("Mul", {"x", "q4"}, {"p4"});
  g.node("Mul", {"c", "p4"}, {"c4"});
  g.node("Add", {"c4", "x"}, {"i4"});
  g.node("Mul", {"k", "i4"}, {"s4"});
  g.node("Tanh", {"s4"}, {"t4"});
  g.node("Add", {"one", "t4"}, {"a4"});
  g.node("Mul", {"a4", "x"}, {"m4"});
  g.node("Mul", {"half", "m4"}, {"g4"});
  erf_gelu(g, "5", "g5");
  g.node("Div", {"x", "two"}, {"d6"});
  g.node("Erf", {"d6"}, {"e6"});
  g.node("Add", {"e6", "one"}, {"a6"});
  g.node("Mul", {"x", "a6"}, {"m6"});
  g.node("Mul", {"m6", "half"}, {"g6"});
  g.node("If", {"p"}, {"r"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  for (const char* out : {"g1", "g2", "g3", "g4", "g5", "e5", "g6", "r"})
    g.output(out, ElemType::Float, {2, 3});
  return g;
}

TEST(PassGolden, Gelu) {
  std::string out = test::check_golden(gelu_model(), "gelu", test::report_line("gelu", 5));
  EXPECT_EQ(test::count_ops(out, "Gelu"), 3);      // g1, g2, the branch's
  EXPECT_EQ(test::count_ops(out, "FastGelu"), 2);  // g3, g4
  EXPECT_EQ(test::count_ops(out, "Erf"), 2);       // g5's, g6's
  EXPECT_EQ(test::count_ops(out, "Tanh"), 0);
  const std::vector<float> x = {-3, -1, -0.25f, 0, 0.5f, 2};
  auto y = test::run_plain(out, {{"x", f32({2, 3}, x)}, {"p", test::boolean({}, {true})}});
  for (size_t i = 0; i < x.size(); ++i) {
    const double erf_form = gelu_erf(x[i]), tanh_form = gelu_tanh(x[i]);
    for (size_t o : {0, 1, 4, 7}) EXPECT_NEAR(floats_of(y[o])[i], erf_form, 1e-6) << o;
    for (size_t o : {2, 3}) EXPECT_NEAR(floats_of(y[o])[i], tanh_form, 1e-6) << o;
    EXPECT_NEAR(floats_of(y[5])[i], std::erf(x[i] / std::sqrt(2.0)), 1e-6);
    EXPECT_NEAR(floats_of(y[6])[i], 0.5 * x[i] * (1 + std::erf(x[i] / 2.0)), 1e-6);
  }
}

// Not fused: a double x (the contrib Gelus are registered for it, but the pass keeps to
// float), a Tanh form whose cube coefficient is off, and x * (1 + Erf(x / sqrt2)) times
// (0.5 * 2): four factors, no Gelu.
TEST(GeluFusion, LeavesOtherTypesConstantsAndProducts) {
  GraphBuilder d("main");
  d.input("x", ElemType::Double, {4});
  d.initializer("sqrt2", test::tensor_of<double>(ElemType::Double, {},
                                                 [](int64_t) { return std::sqrt(2.0); }));
  d.initializer("one", test::tensor_of<double>(ElemType::Double, {}, [](int64_t) { return 1; }));
  d.initializer("half", test::tensor_of<double>(ElemType::Double, {}, [](int64_t) { return 0.5; }));
  d.node("Div", {"x", "sqrt2"}, {"d"});
  d.node("Erf", {"d"}, {"e"});
  d.node("Add", {"e", "one"}, {"a"});
  d.node("Mul", {"x", "a"}, {"m"});
  d.node("Mul", {"m", "half"}, {"y"});
  d.output("y", ElemType::Double, {4});
  EXPECT_EQ(
      test::count_ops(test::optimize_file(test::save_scratch(d, "gelu_double"), {"gelu"}), "Gelu"),
      0);
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {4});
  add_constants(g);
  g.initializer("c_off", f32({}, {0.05f}));
  g.node("Pow", {"x", "three"}, {"p"});
  g.node("Mul", {"p", "c_off"}, {"c3"});
  g.node("Add", {"x", "c3"}, {"i"});
  g.node("Mul", {"i", "k"}, {"s"});
  g.node("Tanh", {"s"}, {"t"});
  g.node("Add", {"t", "one"}, {"a"});
  g.node("Mul", {"x", "half"}, {"h"});
  g.node("Mul", {"h", "a"}, {"y1"});
  g.node("Div", {"x", "sqrt2"}, {"d"});
  g.node("Erf", {"d"}, {"e"});
  g.node("Add", {"e", "one"}, {"a2"});
  g.node("Mul", {"x", "a2"}, {"m"});
  g.node("Mul", {"half", "two"}, {"q"});
  g.node("Mul", {"m", "q"}, {"y2"});
  g.output("y1", ElemType::Float, {4}).output("y2", ElemType::Float, {4});
  const std::string out = test::optimize_file(test::save_scratch(g, "gelu_kept"), {"gelu"});
  EXPECT_EQ(test::count_ops(out, "FastGelu"), 0);
  EXPECT_EQ(test::count_ops(out, "Gelu"), 0);
}

// A chain of 50,000 Muls (each the only reader of the one before): the pass looks at a few
// levels of each product, so it neither recurses down the chain nor fuses anything.
TEST(GeluFusion, LongMulChainIsLeftAlone) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("half", f32({}, {0.5f}));
  std::string last = "x";
  for (int i = 0; i < 50000; ++i) {
    const std::string next = "m" + std::to_string(i);
    g.node("Mul", {last, "half"}, {next});
    last = next;
  }
  g.output(last, ElemType::Float, {2});
  const std::string out = test::optimize_file(test::save_scratch(g, "gelu_chain"), {"gelu"});
  EXPECT_EQ(test::count_ops(out, "Mul"), 50000);
}

// Both forms on x of random shapes (ranks 1-3, up to 2,000 elements, enough to split across
// two threads) and values to ±6 (the negative tails included): the `all` level fuses them,
// and at 1 and 2 threads the fused and unfused (basic) models agree with Gelu in double.
TEST(Fusions, GeluMatchesUnfusedOnRandomShapes) {
  test::Rng rng(151);
  for (int trial = 0; trial < 6; ++trial) {
    test::Dims64 dims;
    const int64_t rank = rng.uniform(1, 3);
    int64_t left = 2000;
    for (int64_t d = 0; d < rank; ++d) {
      dims.push_back(rng.uniform(1, std::max<int64_t>(1, left)));
      left /= dims.back();
    }
    GraphBuilder g("main");
    g.input("x", ElemType::Float, dims);
    add_constants(g);
    erf_gelu(g, "1", "y1");
    tanh_gelu(g, "2", "y2");
    g.output("y1", ElemType::Float, dims).output("y2", ElemType::Float, dims);
    const std::string path = test::save_scratch(g, "gelu_random");
    const std::string fused = test::optimize_file(path, {"gelu"});
    EXPECT_EQ(test::count_ops(fused, "Gelu"), 1);
    EXPECT_EQ(test::count_ops(fused, "FastGelu"), 1);
    const Tensor x = test::random_floats(Dims(std::span<const int64_t>(dims)), rng, -6, 6);
    const std::vector<float> xs = floats_of(x);
    for (Optimization level : {Optimization::basic, Optimization::all})
      for (int threads : {1, 2}) {
        SCOPED_TRACE(testing::Message() << "trial " << trial << ", threads " << threads
                                        << ", level " << static_cast<int>(level));
        SessionOptions options;
        options.optimization = level;
        options.threads = threads;
        Session session(Model::load(path), options);
        const auto y = session.run({{"x", Value(x)}});
        const std::vector<float> erf_form = floats_of(y[0].second.tensor());
        const std::vector<float> tanh_form = floats_of(y[1].second.tensor());
        ASSERT_EQ(erf_form.size(), xs.size());
        for (size_t i = 0; i < xs.size(); ++i) {
          // The unfused graph computes 1 + erf and 1 + tanh in float: near -6 they cancel to
          // an absolute error of a float's rounding of 1.
          ASSERT_NEAR(erf_form[i], gelu_erf(xs[i]), 1e-6 + 1e-6 * std::abs(xs[i])) << "at " << i;
          ASSERT_NEAR(tanh_form[i], gelu_tanh(xs[i]), 1e-6 + 1e-6 * std::abs(xs[i])) << "at " << i;
        }
      }
  }
}

}  // namespace
}  // namespace bough
