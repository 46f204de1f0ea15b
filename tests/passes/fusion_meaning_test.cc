// The fusions never change what a model computes: random graphs around each fusion pattern
// (constants of rank 0 to 3 that may broadcast x to a higher rank, extra readers of the
// values in between, graph outputs in the middle) give the same output shapes and values at
// `--optimize none` and `all`; the rewrite API refuses a replacement of another type; the
// pipeline driver names a pass that changes a value's type.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/read_model.h"
#include "passes/fusion.h"
#include "passes/pass_test_util.h"
#include "passes/pipeline.h"
#include "passes/rewrite.h"
#include "reference.h"

namespace bough {
namespace {

using test::Dims64;
using test::f32;
using test::GraphBuilder;
using test::NamedTensors;

// A one-element float tensor of rank `rank`: [], [1], [1, 1], ...
Tensor one_element(float v, int rank) { return f32(Dims64(static_cast<size_t>(rank), 1), {v}); }

Tensor random_tensor(std::mt19937& rng, const Dims64& dims) {
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (float& f : v) f = u(rng);
  return f32(dims, v);
}

Dims64 random_dims(std::mt19937& rng, int rank) {
  Dims64 dims;
  for (int k = 0; k < rank; ++k) dims.push_back(1 + static_cast<int64_t>(rng() % 3));
  return dims;
}

// One random model around a fusion pattern, with the input values to run it on.
struct Case {
  GraphBuilder g{"main"};
  NamedTensors inputs;
  std::vector<std::string> outputs;        // the graph outputs
  std::vector<std::string> intermediates;  // values inside the pattern
};

// The erf (`tanh` false) or tanh Gelu subgraph of x, each constant of a random rank 0-3.
void gelu_pattern(Case& c, std::mt19937& rng, bool tanh) {
  const Dims64 x = random_dims(rng, 1 + static_cast<int>(rng() % 3));
  c.g.input("x", ElemType::Float, x);
  c.inputs.emplace_back("x", random_tensor(rng, x));
  auto constant = [&](const std::string& name, float v) {
    c.g.initializer(name, one_element(v, static_cast<int>(rng() % 4)));
  };
  constant("half", 0.5f);
  constant("one", 1.0f);
  if (!tanh) {
    constant("sqrt2", static_cast<float>(std::sqrt(2.0)));
    c.g.node("Div", {"x", "sqrt2"}, {"d"});
    c.g.node("Erf", {"d"}, {"e"});
    c.g.node("Add", {"e", "one"}, {"a"});
    c.g.node("Mul", {"x", "a"}, {"m"});
    c.g.node("Mul", {"m", "half"}, {"y"});
    c.intermediates = {"d", "e", "a", "m"};
  } else {
    constant("three", 3.0f);
    constant("c", 0.044715f);
    constant("k", static_cast<float>(std::sqrt(2 / M_PI)));
    c.g.node("Pow", {"x", "three"}, {"p"});
    c.g.node("Mul", {"p", "c"}, {"pc"});
    c.g.node("Add", {"x", "pc"}, {"i"});
    c.g.node("Mul", {"i", "k"}, {"s"});
    c.g.node("Tanh", {"s"}, {"t"});
    c.g.node("Add", {"t", "one"}, {"a"});
    c.g.node("Mul", {"x", "half"}, {"h"});
    c.g.node("Mul", {"h", "a"}, {"y"});
    c.intermediates = {"p", "pc", "i", "s", "t", "a", "h"};
  }
}

// A Conv with a bias and the activation after it.
void conv_pattern(Case& c, std::mt19937& rng) {
  const int64_t C = 1 + static_cast<int64_t>(rng() % 3), M = 1 + static_cast<int64_t>(rng() % 3);
  const Dims64 x{1, C, 3 + static_cast<int64_t>(rng() % 3), 4};
  c.g.input("x", ElemType::Float, x);
  c.inputs.emplace_back("x", random_tensor(rng, x));
  c.g.initializer("w", random_tensor(rng, {M, C, 3, 3}));
  c.g.initializer("b", random_tensor(rng, {M}));
  auto& conv = c.g.node("Conv", {"x", "w", "b"}, {"v"});
  test::set_ints(conv, "pads", {1, 1, 1, 1});
  switch (rng() % 4) {
    case 0:
      c.g.node("Relu", {"v"}, {"y"});
      break;
    case 1:
      c.g.initializer("lo", f32({}, {-0.5f})).initializer("hi", f32({}, {0.7f}));
      c.g.node("Clip", {"v", "lo", "hi"}, {"y"});
      break;
    case 2:
      test::set_float(c.g.node("LeakyRelu", {"v"}, {"y"}), "alpha", 0.1f);
      break;
    default:
      c.g.node("Sigmoid", {"v"}, {"y"});
  }
  c.intermediates = {"v"};
}

// MatMul(A, B) + C, C of a shape that may broadcast the product to a higher rank.
void matmul_add_pattern(Case& c, std::mt19937& rng) {
  const int64_t m = 1 + static_cast<int64_t>(rng() % 3), k = 1 + static_cast<int64_t>(rng() % 3),
                n = 1 + static_cast<int64_t>(rng() % 3);
  c.g.input("a", ElemType::Float, {m, k});
  c.inputs.emplace_back("a", random_tensor(rng, {m, k}));
  c.g.initializer("bw", random_tensor(rng, {k, n}));
  const std::vector<Dims64> c_shapes = {{}, {1}, {n}, {1, n}, {m, n}, {1, 1, n}, {1, 1}};
  c.g.initializer("cb", random_tensor(rng, c_shapes[rng() % c_shapes.size()]));
  c.g.node("MatMul", {"a", "bw"}, {"p"});
  c.g.node("Add", {"p", "cb"}, {"y"});
  c.intermediates = {"p"};
}

// MatMul(A, Transpose(X)), A of rank 2 or 3 (Gemm or FusedMatMul).
void transpose_matmul_pattern(Case& c, std::mt19937& rng) {
  const int64_t k = 1 + static_cast<int64_t>(rng() % 3), n = 1 + static_cast<int64_t>(rng() % 3);
  Dims64 a = random_dims(rng, 1 + static_cast<int>(rng() % 2));
  a.push_back(k);
  c.g.input("a", ElemType::Float, a).input("xt", ElemType::Float, {n, k});
  c.inputs.emplace_back("a", random_tensor(rng, a));
  c.inputs.emplace_back("xt", random_tensor(rng, {n, k}));
  test::set_ints(c.g.node("Transpose", {"xt"}, {"t"}), "perm", {1, 0});
  c.g.node("MatMul", {"a", "t"}, {"y"});
  c.intermediates = {"t"};
}

// Transpose(Transpose(X, p1), p2) on a rank-3 X.
void transposes_pattern(Case& c, std::mt19937& rng) {
  const Dims64 x = random_dims(rng, 3);
  c.g.input("x", ElemType::Float, x);
  c.inputs.emplace_back("x", random_tensor(rng, x));
  Dims64 p1{0, 1, 2}, p2{0, 1, 2};
  std::shuffle(p1.begin(), p1.end(), rng);
  std::shuffle(p2.begin(), p2.end(), rng);
  test::set_ints(c.g.node("Transpose", {"x"}, {"t"}), "perm", p1);
  test::set_ints(c.g.node("Transpose", {"t"}, {"y"}), "perm", p2);
  c.intermediates = {"t"};
}

// Sometimes makes a value in the middle of the pattern a graph output, or gives it a reader
// of its own; the pattern's result is always an output.
void add_readers(Case& c, std::mt19937& rng) {
  c.outputs = {"y"};
  for (const std::string& v : c.intermediates) {
    const unsigned roll = rng() % 6;
    if (roll == 0) {
      c.outputs.push_back(v);
    } else if (roll == 1) {
      c.g.node("Neg", {v}, {v + "_neg"});
      c.outputs.push_back(v + "_neg");
    }
  }
  for (const std::string& o : c.outputs) c.g.output_untyped(o);
}

std::vector<Tensor> run_at(const std::string& path, Optimization level, const NamedTensors& in) {
  SessionOptions options;
  options.optimization = level;
  Session session(Model::load(path), options);
  NamedValues feed;
  for (const auto& [name, t] : in) feed.emplace_back(name, Value(t));
  std::vector<Tensor> out;
  for (auto& [name, v] : session.run(feed)) out.push_back(v.tensor());
  return out;
}

// Every case of one pattern at both levels: the same shapes, the same values (to 1e-5,
// relative: the fused kernels round differently).
void check_pattern(const std::string& name, void (*build)(Case&, std::mt19937&), int cases) {
  for (int seed = 0; seed < cases; ++seed) {
    SCOPED_TRACE(name + " seed " + std::to_string(seed));
    std::mt19937 rng(static_cast<unsigned>(seed));
    Case c;
    build(c, rng);
    add_readers(c, rng);
    const std::string path = test::save_scratch(c.g, "fusion_meaning_" + name);
    const std::vector<Tensor> plain = run_at(path, Optimization::none, c.inputs);
    const std::vector<Tensor> fused = run_at(path, Optimization::all, c.inputs);
    ASSERT_EQ(plain.size(), fused.size());
    for (size_t o = 0; o < plain.size(); ++o) {
      SCOPED_TRACE("output " + c.outputs[o]);
      ASSERT_EQ(plain[o].shape(), fused[o].shape());
      const std::vector<float> a = test::floats_of(plain[o]), b = test::floats_of(fused[o]);
      for (size_t i = 0; i < a.size(); ++i)
        EXPECT_NEAR(a[i], b[i], 1e-5 + 1e-5 * std::abs(a[i])) << "at " << i;
    }
  }
}

TEST(FusionMeaning, ErfGeluAroundBroadcastingConstants) {
  check_pattern(
      "erf", [](Case& c, std::mt19937& rng) { gelu_pattern(c, rng, false); }, 40);
}
TEST(FusionMeaning, TanhGeluAroundBroadcastingConstants) {
  check_pattern(
      "tanh", [](Case& c, std::mt19937& rng) { gelu_pattern(c, rng, true); }, 40);
}
TEST(FusionMeaning, ConvActivation) { check_pattern("conv", conv_pattern, 24); }
TEST(FusionMeaning, MatMulAddIntoGemm) { check_pattern("gemm", matmul_add_pattern, 30); }
TEST(FusionMeaning, TransposeIntoMatMul) {
  check_pattern("transpose_matmul", transpose_matmul_pattern, 20);
}
TEST(FusionMeaning, TransposePairs) { check_pattern("transposes", transposes_pattern, 20); }

// The case: x [3] and constants [1, 1] compute [1, 3]; fusing would give [3].
// Kept unfused, and the session's declared output type agrees with what a run returns.
TEST(FusionMeaning, GeluWithRankTwoConstantsKeepsTheBroadcastShape) {
  for (const bool tanh : {false, true}) {
    SCOPED_TRACE(tanh ? "tanh" : "erf");
    GraphBuilder g("main");
    g.input("x", ElemType::Float, {3});
    for (const char* k : {"half", "one", "sqrt2", "three", "c", "k"}) {
      const float v = std::string(k) == "half"    ? 0.5f
                      : std::string(k) == "one"   ? 1.0f
                      : std::string(k) == "sqrt2" ? static_cast<float>(std::sqrt(2.0))
                      : std::string(k) == "three" ? 3.0f
                      : std::string(k) == "c"     ? 0.044715f
                                                  : static_cast<float>(std::sqrt(2 / M_PI));
      g.initializer(k, one_element(v, std::string(k) == "half" ? 2 : 0));
    }
    if (!tanh) {
      g.node("Div", {"x", "sqrt2"}, {"d"});
      g.node("Erf", {"d"}, {"e"});
      g.node("Add", {"e", "one"}, {"a"});
      g.node("Mul", {"x", "a"}, {"m"});
      g.node("Mul", {"m", "half"}, {"y"});
    } else {
      g.node("Pow", {"x", "three"}, {"p"});
      g.node("Mul", {"p", "c"}, {"pc"});
      g.node("Add", {"x", "pc"}, {"i"});
      g.node("Mul", {"i", "k"}, {"s"});
      g.node("Tanh", {"s"}, {"t"});
      g.node("Add", {"t", "one"}, {"a"});
      g.node("Mul", {"x", "half"}, {"h"});
      g.node("Mul", {"h", "a"}, {"y"});
    }
    g.output_untyped("y");
    const std::string path = test::save_scratch(g, "gelu_rank_two_constant");
    Session session(Model::load(path));
    ASSERT_EQ(session.outputs()[0].shape.size(), 2u);
    NamedValues feed = {{"x", Value(f32({3}, {-1.0f, 0.0f, 2.0f}))}};
    const Tensor y = session.run(feed)[0].second.tensor();
    EXPECT_EQ(y.shape(), (Dims{1, 3}));
    EXPECT_EQ(test::count_ops(test::optimize_file(path, {"gelu"}), "Gelu") +
                  test::count_ops(test::optimize_file(path, {"gelu"}), "FastGelu"),
              0);
  }
}

// The rewrite API refuses a new node whose output type is not the value's: Gelu(x) of x [3]
// in place of x * h, h of shape [1, 1] ([1, 3]).
TEST(FusionMeaning, RewriteRefusesAReplacementOfAnotherType) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {3});
  g.initializer("h", one_element(0.5f, 2));
  g.node("Mul", {"x", "h"}, {"y"});
  g.output_untyped("y");
  auto model = read_model_file(test::save_scratch(g, "rewrite_refuses"));
  model->opset_imports.emplace_back(passes::kMicrosoftDomain, 1);
  const passes::ModelTypes types(*model);
  ir::Graph& graph = *model->graph;
  passes::NodeEdits edits(graph);
  ir::Node* gelu = edits.add_before(*graph.nodes[0], "Gelu", "fused");
  gelu->domain = passes::kMicrosoftDomain;
  gelu->inputs = {graph.inputs[0]};
  try {
    passes::replace_producer({*model, types}, *gelu, 0, graph.outputs[0]);
    FAIL() << "replace_producer accepted a [3] for a [1,3]";
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("tensor(float)[3] instead of tensor(float)[1,3]"), std::string::npos)
        << e.what();
  }
  // The same node in place of a value of its own type is taken.
  GraphBuilder same("main");
  same.input("x", ElemType::Float, {3});
  same.node("Neg", {"x"}, {"y"});
  same.output_untyped("y");
  auto ok = read_model_file(test::save_scratch(same, "rewrite_takes"));
  ok->opset_imports.emplace_back(passes::kMicrosoftDomain, 1);
  const passes::ModelTypes ok_types(*ok);
  passes::NodeEdits ok_edits(*ok->graph);
  ir::Node* g2 = ok_edits.add_before(*ok->graph->nodes[0], "Gelu", "fused");
  g2->domain = passes::kMicrosoftDomain;
  g2->inputs = {ok->graph->inputs[0]};
  EXPECT_NO_THROW(passes::replace_producer({*ok, ok_types}, *g2, 0, ok->graph->outputs[0]));
}

// A pass that changes a value's type (here: the Reshape's target) is named by the driver.
int reshape_to_flat(ir::Model& model) {
  for (auto& n : model.graph->nodes)
    if (n->op_type == "Reshape") {
      for (ir::Edge* e : model.graph->initializers)
        if (e == n->inputs[1] && e->data && e->data->numel() == 2) {
          *e->data = test::i64({1}, {-1});
          return 1;
        }
    }
  return 0;
}

TEST(FusionMeaning, PipelineNamesThePassThatChangedAType) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3});
  g.initializer("shape", test::i64({2}, {3, 2}));
  g.node("Reshape", {"x", "shape"}, {"r"});
  g.node("Neg", {"r"}, {"y"});
  g.output_untyped("y");
  auto model = read_model_file(test::save_scratch(g, "pipeline_names_pass"));
  const passes::Pass broken{"reshape-to-flat", "a broken pass, for this test", reshape_to_flat};
  passes::PipelineOptions options;
  options.passes = {passes::find_pass("dead-code"), &broken};
  try {
    passes::optimize(*model, options);
    FAIL() << "the driver accepted a pass that changed a type";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the pass reshape-to-flat (a bug in bough)"), std::string::npos) << what;
    EXPECT_NE(what.find("'r' became tensor(float)[6], it was tensor(float)[3,2]"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace bough
