// If, Loop and Scan: the cases the spec allows and other engines get wrong. Expected
// values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

NamedValues run_model(const GraphBuilder& g, const NamedValues& inputs, int64_t opset = 17) {
  std::string dir = test::scratch_dir("cf");
  std::string path = test::save_model(test::make_model(g, opset), dir, "m.onnx");
  Session session(Model::load(path));
  return session.run(inputs);
}

// A branch graph with no inputs whose single output is `out`, made by `fill`.
GraphBuilder branch(const std::string& name, const std::string& out) {
  GraphBuilder b(name);
  b.output_untyped(out);
  return b;
}

TEST(If, CaptureFromThreeLevelsUp) {
  // main: x; If1.then -> If2.then -> If3.then computes x + x. All conditions true.
  GraphBuilder l3t = branch("l3t", "s3"), l3e = branch("l3e", "e3");
  l3t.node("Add", {"x", "x"}, {"s3"});
  l3e.node("Identity", {"x"}, {"e3"});
  GraphBuilder l2t = branch("l2t", "s2"), l2e = branch("l2e", "e2");
  test::set_graph(l2t.node("If", {"c"}, {"s2"}, "level3"), "then_branch", l3t);
  test::set_graph(l2t.graph_node_last(), "else_branch", l3e);
  l2e.node("Identity", {"x"}, {"e2"});
  GraphBuilder l1t = branch("l1t", "s1"), l1e = branch("l1e", "e1");
  test::set_graph(l1t.node("If", {"c"}, {"s1"}, "level2"), "then_branch", l2t);
  test::set_graph(l1t.graph_node_last(), "else_branch", l2e);
  l1e.node("Identity", {"x"}, {"e1"});
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {3}).output("y", ElemType::Float, {3});
  test::set_graph(g.node("If", {"c"}, {"y"}, "level1"), "then_branch", l1t);
  test::set_graph(g.graph_node_last(), "else_branch", l1e);
  auto out = run_model(g, {{"c", test::boolean({}, {true})}, {"x", f32({3}, {1, 2, 3})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{2, 4, 6}));
  out = run_model(g, {{"c", test::boolean({}, {false})}, {"x", f32({3}, {1, 2, 3})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2, 3}));
}

TEST(If, BranchReturnsOuterValueDirectly) {
  // ONNX Runtime rejects this valid model; the then-branch's output is the outer x itself.
  GraphBuilder t = branch("t", "x"), e = branch("e", "neg");
  e.node("Sub", {"zero", "x"}, {"neg"});
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.initializer("zero", f32({}, {0}));
  test::set_graph(g.node("If", {"c"}, {"y"}), "then_branch", t);
  test::set_graph(g.graph_node_last(), "else_branch", e);
  auto out = run_model(g, {{"c", test::boolean({}, {true})}, {"x", f32({2}, {5, -1})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, -1}));
  out = run_model(g, {{"c", test::boolean({}, {false})}, {"x", f32({2}, {5, -1})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{-5, 1}));
}

TEST(If, BranchesOfDifferentShapesAndBranchInitializers) {
  GraphBuilder t = branch("t", "a"), e = branch("e", "b");
  t.initializer("a", f32({2}, {1, 2}));
  e.initializer("b", f32({3}, {7, 8, 9}));
  GraphBuilder g;
  g.input("c", ElemType::Bool).output("y", ElemType::Float, {-1});
  test::set_graph(g.node("If", {"c"}, {"y"}), "then_branch", t);
  test::set_graph(g.graph_node_last(), "else_branch", e);
  auto out = run_model(g, {{"c", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2}));
  out = run_model(g, {{"c", test::boolean({}, {false})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{7, 8, 9}));
}

// Branch outputs are computed in place, into the If's outputs: a branch that reads its own
// output again, an output listed under two names, and a failed run in between must not
// disturb that.
TEST(If, BranchReadsItsOwnOutputAndSurvivesAFailedRun) {
  GraphBuilder t("t"), e("e");
  t.output_untyped("ty").output_untyped("tz");
  t.node("Mod", {"x", "d"}, {"ty"});
  t.node("Mul", {"ty", "ty"}, {"tz"});
  e.output_untyped("ey").output_untyped("ez");
  e.node("Neg", {"x"}, {"ey"});
  e.node("Identity", {"ey"}, {"ez"});
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Int64, {2}).input("d", ElemType::Int64, {2});
  g.output("y", ElemType::Int64, {2}).output("z", ElemType::Int64, {2});
  test::set_graph(g.node("If", {"c"}, {"y", "z"}), "then_branch", t);
  test::set_graph(g.graph_node_last(), "else_branch", e);
  Session s(Model::load(
      test::save_model(test::make_model(g), test::scratch_dir("cf_inplace"), "m.onnx")));
  auto run = [&](bool c, std::vector<int64_t> d) {
    auto out = s.run(
        {{"c", test::boolean({}, {c})}, {"x", test::i64({2}, {7, -7})}, {"d", test::i64({2}, d)}});
    return std::vector<int64_t>{
        out[0].second.tensor().get_int(0), out[0].second.tensor().get_int(1),
        out[1].second.tensor().get_int(0), out[1].second.tensor().get_int(1)};
  };
  // 7 mod 3 = 1, -7 mod 3 = 2 (the divisor's sign); squared: 1, 4.
  EXPECT_EQ(run(true, {3, 3}), (std::vector<int64_t>{1, 2, 1, 4}));
  EXPECT_THROW(run(true, {0, 3}), Error);  // integer modulo by zero
  EXPECT_EQ(run(true, {3, 3}), (std::vector<int64_t>{1, 2, 1, 4}));
  EXPECT_EQ(run(false, {3, 3}), (std::vector<int64_t>{-7, 7, -7, 7}));
  EXPECT_EQ(run(true, {3, 3}), (std::vector<int64_t>{1, 2, 1, 4}));
}

GraphBuilder if_on_input(const test::Dims64& cond_dims) {
  GraphBuilder t = branch("t", "one"), e = branch("e", "two");
  t.initializer("one", f32({}, {1}));
  e.initializer("two", f32({}, {2}));
  GraphBuilder g;
  g.input("c", ElemType::Bool, cond_dims).output("y", ElemType::Float);
  test::set_graph(g.node("If", {"c"}, {"y"}, "gate"), "then_branch", t);
  test::set_graph(g.graph_node_last(), "else_branch", e);
  return g;
}

TEST(If, ConditionOfAnyRankWithOneElement) {
  auto out = run_model(if_on_input({1}), {{"c", test::boolean({1}, {false})}});
  EXPECT_EQ(out[0].second.tensor().data<float>()[0], 2.0f);
  out = run_model(if_on_input({1, 1}), {{"c", test::boolean({1, 1}, {true})}});
  EXPECT_EQ(out[0].second.tensor().data<float>()[0], 1.0f);
}

TEST(If, ConditionWithZeroOrTwoElementsIsAnErrorNamingTheNode) {
  for (int64_t n : {0, 2}) {
    try {
      run_model(if_on_input({-1}),
                {{"c", test::boolean({n}, std::vector<bool>(static_cast<size_t>(n), true))}});
      ADD_FAILURE() << "no error for a condition of " << n << " elements";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::BadInput);
      EXPECT_NE(std::string(e.what()).find("main/If \"gate\""), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("exactly one element"), std::string::npos) << e.what();
    }
  }
}

// Loop body: (i, cond_in, x) -> (cond_out, x + 1, scan: x). cond_out = keep_going, a body
// initializer chosen by the test.
GraphBuilder counting_body(bool keep_going) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("x", ElemType::Float, {1});
  body.initializer("keep", test::boolean({}, {keep_going}));
  body.node("Add", {"x", "one"}, {"x_next"});
  body.node("Identity", {"keep"}, {"cond_out"});
  body.node("Identity", {"x"}, {"scan"});
  body.output_untyped("cond_out").output_untyped("x_next").output_untyped("scan");
  return body;
}

GraphBuilder loop_model(const std::string& m, const std::string& cond, bool keep_going) {
  GraphBuilder g;
  if (!m.empty()) g.input("M", ElemType::Int64);
  if (!cond.empty()) g.input("cond", ElemType::Bool);
  g.input("x0", ElemType::Float, {1}).initializer("one", f32({1}, {1}));
  g.output("x_final", ElemType::Float, {1}).output("xs", ElemType::Float, {-1, 1});
  test::set_graph(g.node("Loop", {m, cond, "x0"}, {"x_final", "xs"}, "loop"), "body",
                  counting_body(keep_going));
  return g;
}

TEST(Loop, OnlyTripCountIgnoresTheBodyCondition) {
  // The body says stop (false) every time; with M alone the spec ignores it: 4 iterations.
  auto out =
      run_model(loop_model("M", "", false), {{"M", Tensor::scalar_i64(4)}, {"x0", f32({1}, {10})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{14}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{10, 11, 12, 13}));
  EXPECT_EQ(out[1].second.tensor().shape(), (Dims{4, 1}));
}

TEST(Loop, OnlyConditionRunsWhileTheBodySaysSo) {
  // cond true at entry, body returns false: exactly one iteration.
  auto out = run_model(loop_model("", "cond", false),
                       {{"cond", test::boolean({}, {true})}, {"x0", f32({1}, {10})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{11}));
  EXPECT_EQ(out[1].second.tensor().shape(), (Dims{1, 1}));
}

TEST(Loop, BothStopAtWhicheverComesFirst) {
  auto out = run_model(
      loop_model("M", "cond", true),
      {{"M", Tensor::scalar_i64(3)}, {"cond", test::boolean({}, {true})}, {"x0", f32({1}, {0})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3}));
  out = run_model(
      loop_model("M", "cond", false),
      {{"M", Tensor::scalar_i64(3)}, {"cond", test::boolean({}, {true})}, {"x0", f32({1}, {0})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1}));
}

TEST(Loop, ZeroIterationsGiveInitialValuesAndEmptyScanOutputs) {
  auto out =
      run_model(loop_model("M", "", true), {{"M", Tensor::scalar_i64(0)}, {"x0", f32({1}, {7})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{7}));
  EXPECT_EQ(out[1].second.tensor().shape(), (Dims{0, 1}));
  out = run_model(
      loop_model("M", "cond", true),
      {{"M", Tensor::scalar_i64(5)}, {"cond", test::boolean({}, {false})}, {"x0", f32({1}, {7})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{7}));
  EXPECT_EQ(out[1].second.tensor().shape(), (Dims{0, 1}));
}

// A body that returns an outer value as a scan output, without declaring its type, shapes
// an empty result from the outer value's type, here declared by a value_info entry of main
// (which the reader applies after reading the body): [0, 2, 3], not [0].
TEST(Loop, ZeroIterationsShapeAScanOfACaptureTypedByValueInfo) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cond_in", ElemType::Bool);
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool).output_untyped("xn");
  GraphBuilder g;
  g.input("x", ElemType::Float, {2, 3}).input("M", ElemType::Int64);
  g.node("Neg", {"x"}, {"xn"});
  test::set_graph(g.node("Loop", {"M", ""}, {"scans"}), "body", body);
  g.value_info("xn", ElemType::Float, {2, 3});
  g.output_untyped("scans");
  const Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto out = run_model(g, {{"x", x}, {"M", Tensor::scalar_i64(0)}});
  EXPECT_EQ(out[0].second.tensor().shape(), (Dims{0, 2, 3}));
  EXPECT_EQ(out[0].second.tensor().type(), ElemType::Float);
  out = run_model(g, {{"x", x}, {"M", Tensor::scalar_i64(2)}});
  EXPECT_EQ(out[0].second.tensor().shape(), (Dims{2, 2, 3}));
}

TEST(Loop, HugeTripCountWithEarlyExit) {
  // M = 2^62 with cond: the body stops when i + 1 >= 5, so 5 iterations and a 5-row scan
  // output (nothing is reserved for 2^62 rows).
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("x", ElemType::Float, {1});
  body.initializer("five", Tensor::scalar_i64(5));
  body.node("Add", {"x", "one"}, {"x_next"});
  body.node("Add", {"i", "one_i"}, {"i1"});
  body.node("Less", {"i1", "five"}, {"cond_out"});
  body.node("Identity", {"x"}, {"scan"});
  body.output_untyped("cond_out").output_untyped("x_next").output_untyped("scan");
  GraphBuilder g;
  g.input("M", ElemType::Int64).input("cond", ElemType::Bool).input("x0", ElemType::Float, {1});
  g.initializer("one", f32({1}, {1})).initializer("one_i", Tensor::scalar_i64(1));
  g.output("x_final", ElemType::Float, {1}).output("xs", ElemType::Float, {-1, 1});
  test::set_graph(g.node("Loop", {"M", "cond", "x0"}, {"x_final", "xs"}), "body", body);
  auto out = run_model(g, {{"M", Tensor::scalar_i64(int64_t{1} << 62)},
                           {"cond", test::boolean({}, {true})},
                           {"x0", f32({1}, {0})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{0, 1, 2, 3, 4}));
}

TEST(Loop, IfInsideLoopInsideIf) {
  // outer If (true) -> Loop 3 times -> If on (cond_in) adds c (captured from main) to x.
  GraphBuilder inner_t = branch("it", "sum"), inner_e = branch("ie", "same");
  inner_t.node("Add", {"x", "c"}, {"sum"});
  inner_e.node("Identity", {"x"}, {"same"});
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("x", ElemType::Float, {2});
  test::set_graph(body.node("If", {"cond_in"}, {"x_next"}, "inner"), "then_branch", inner_t);
  test::set_graph(body.graph_node_last(), "else_branch", inner_e);
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output_untyped("cond_out").output_untyped("x_next");
  GraphBuilder outer_t = branch("ot", "looped"), outer_e = branch("oe", "x0");
  test::set_graph(outer_t.node("Loop", {"M", "", "x0"}, {"looped"}, "loop"), "body", body);
  GraphBuilder g;
  g.input("c", ElemType::Float, {2}).input("x0", ElemType::Float, {2}).input("M", ElemType::Int64);
  g.input("go", ElemType::Bool).output("y", ElemType::Float, {2});
  test::set_graph(g.node("If", {"go"}, {"y"}, "outer"), "then_branch", outer_t);
  test::set_graph(g.graph_node_last(), "else_branch", outer_e);
  auto out = run_model(g, {{"c", f32({2}, {1, 10})},
                           {"x0", f32({2}, {0, 0})},
                           {"M", Tensor::scalar_i64(3)},
                           {"go", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3, 30}));
}

TEST(Scan, BodyWithAnIfReadingAnOuterValue) {
  // Scan over rows of X [3,2]; state s += row, or += bias (outer) when flag is false.
  GraphBuilder t = branch("t", "r"), e = branch("e", "bias");
  t.node("Identity", {"row"}, {"r"});
  GraphBuilder body("body");
  body.input("s", ElemType::Float, {2}).input("row", ElemType::Float, {2});
  test::set_graph(body.node("If", {"flag"}, {"add"}, "pick"), "then_branch", t);
  test::set_graph(body.graph_node_last(), "else_branch", e);
  body.node("Add", {"s", "add"}, {"s_next"});
  body.node("Identity", {"s_next"}, {"scan"});
  body.output_untyped("s_next").output_untyped("scan");
  GraphBuilder g;
  g.input("flag", ElemType::Bool)
      .input("s0", ElemType::Float, {2})
      .input("X", ElemType::Float, {3, 2});
  g.initializer("bias", f32({2}, {100, 200}));
  g.output("s", ElemType::Float, {2}).output("ys", ElemType::Float, {3, 2});
  auto& scan = g.node("Scan", {"s0", "X"}, {"s", "ys"});
  test::set_int(scan, "num_scan_inputs", 1);
  test::set_graph(scan, "body", body);
  NamedValues in = {{"flag", test::boolean({}, {true})},
                    {"s0", f32({2}, {0, 0})},
                    {"X", f32({3, 2}, {1, 2, 3, 4, 5, 6})}};
  auto out = run_model(g, in);
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{9, 12}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 4, 6, 9, 12}));
  in[0].second = test::boolean({}, {false});
  out = run_model(g, in);
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{300, 600}));
}

TEST(Loop, BuffersStillHeldElsewhereAreNeverOverwrittenInPlace) {
  // Each iteration computes x + 1 into a buffer left from an earlier one, when nothing else
  // holds it. Here the sequence holds every x and the caller holds x0, so each iteration
  // needs a new buffer: the sequence is [1], [2], [3], [4] and x0 stays [0]. Reusing a
  // held buffer would give [3], [4], [3], [4]. A second run must not disturb the first's
  // outputs either.
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("c", ElemType::Bool).input("x", ElemType::Float, {1});
  body.g_input_sequence("s_in");
  body.node("Add", {"x", "one"}, {"x_next"});
  body.node("SequenceInsert", {"s_in", "x_next"}, {"s_out"});
  body.node("Identity", {"c"}, {"c_out"});
  body.output_untyped("c_out").output_untyped("x_next").output_untyped("s_out");
  GraphBuilder g;
  g.input("x0", ElemType::Float, {1}).input("M", ElemType::Int64).initializer("one", f32({1}, {1}));
  g.output("x_final", ElemType::Float, {1}).output("all", ElemType::Float, {-1});
  test::set_int(g.node("SequenceEmpty", {}, {"empty"}), "dtype", 1);
  test::set_graph(g.node("Loop", {"M", "", "x0", "empty"}, {"x_final", "xs"}), "body", body);
  test::set_int(g.node("ConcatFromSequence", {"xs"}, {"all"}), "axis", 0);
  std::string dir = test::scratch_dir("cf");
  Session session(Model::load(test::save_model(test::make_model(g, 17), dir, "m.onnx")));
  const Tensor x0 = f32({1}, {0});
  auto first = session.run({{"x0", x0}, {"M", Tensor::scalar_i64(4)}});
  EXPECT_EQ(floats_of(first[1].second.tensor()), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(floats_of(first[0].second.tensor()), (std::vector<float>{4}));
  EXPECT_EQ(floats_of(x0), (std::vector<float>{0}));
  auto second = session.run({{"x0", f32({1}, {10})}, {"M", Tensor::scalar_i64(2)}});
  EXPECT_EQ(floats_of(second[1].second.tensor()), (std::vector<float>{11, 12}));
  EXPECT_EQ(floats_of(first[1].second.tensor()), (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(floats_of(first[0].second.tensor()), (std::vector<float>{4}));
}

TEST(Loop, BadBodyConditionIsAnErrorAndTheSessionRunsOnAfterIt) {
  // The body's condition is x_next < limit: with a 2-element limit it has 2 elements, an
  // error naming the Loop. The same session then runs a good input: x counts up from 0
  // while x < 3, so 3 iterations.
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("c", ElemType::Bool).input("x", ElemType::Float, {1});
  body.node("Add", {"x", "one"}, {"x_next"});
  body.node("Less", {"x_next", "limit"}, {"c_out"});
  body.output_untyped("c_out").output_untyped("x_next");
  GraphBuilder g;
  g.input("limit", ElemType::Float, {}, false).input("cond", ElemType::Bool);
  g.initializer("one", f32({1}, {1})).initializer("x0", f32({1}, {0}));
  g.output("x_final", ElemType::Float, {1});
  test::set_graph(g.node("Loop", {"", "cond", "x0"}, {"x_final"}, "counter"), "body", body);
  std::string dir = test::scratch_dir("cf");
  Session session(Model::load(test::save_model(test::make_model(g, 17), dir, "m.onnx")));
  try {
    session.run({{"limit", f32({2}, {3, 3})}, {"cond", test::boolean({}, {true})}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("Loop \"counter\""), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("condition output"), std::string::npos) << e.what();
  }
  auto out = session.run({{"limit", f32({1}, {3})}, {"cond", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3}));
}

TEST(Loop, SmallBuffersAreReusedAcrossIterationsAndRuns) {
  // The if_in_loop pattern: Mod, Equal and an If per iteration. Alternating x + 1 and
  // x * 0.5 from x0 = 0 for 5 iterations: 1, 0.5, 1.5, 0.75, 1.75. Run twice on one
  // session (the second run overwrites what the first left in place) with a different M.
  GraphBuilder then_g = branch("then", "t");
  then_g.node("Add", {"x", "one"}, {"t"});
  GraphBuilder else_g = branch("else", "e");
  else_g.node("Mul", {"x", "half"}, {"e"});
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("c", ElemType::Bool).input("x", ElemType::Float, {1});
  body.initializer("two", Tensor::scalar_i64(2)).initializer("zero", Tensor::scalar_i64(0));
  body.node("Mod", {"i", "two"}, {"rem"});
  body.node("Equal", {"rem", "zero"}, {"even"});
  auto& gate = body.node("If", {"even"}, {"x_next"});
  test::set_graph(gate, "then_branch", then_g);
  test::set_graph(gate, "else_branch", else_g);
  body.node("Identity", {"c"}, {"c_out"});
  body.output_untyped("c_out").output_untyped("x_next");
  GraphBuilder g;
  g.input("M", ElemType::Int64).initializer("x0", f32({1}, {0}));
  g.initializer("one", f32({1}, {1})).initializer("half", f32({1}, {0.5}));
  g.output("x_final", ElemType::Float, {1});
  test::set_graph(g.node("Loop", {"M", "", "x0"}, {"x_final"}), "body", body);
  std::string dir = test::scratch_dir("cf");
  Session session(Model::load(test::save_model(test::make_model(g, 17), dir, "m.onnx")));
  auto five = session.run({{"M", Tensor::scalar_i64(5)}});
  EXPECT_EQ(floats_of(five[0].second.tensor()), (std::vector<float>{1.75f}));
  auto two = session.run({{"M", Tensor::scalar_i64(2)}});
  EXPECT_EQ(floats_of(two[0].second.tensor()), (std::vector<float>{0.5f}));
  EXPECT_EQ(floats_of(five[0].second.tensor()), (std::vector<float>{1.75f}));
  // The initializer x0 was never written through.
  auto zero = session.run({{"M", Tensor::scalar_i64(0)}});
  EXPECT_EQ(floats_of(zero[0].second.tensor()), (std::vector<float>{0}));
}

TEST(Scan, ReverseDirectionsAndOutputAxis) {
  // Scan over columns of X [2,3] (axis 1) backwards; stack outputs on axis 1 in reverse.
  GraphBuilder body("body");
  body.input("col", ElemType::Float, {2});
  body.node("Identity", {"col"}, {"out"});
  body.output_untyped("out");
  GraphBuilder g;
  g.input("X", ElemType::Float, {2, 3}).output("Y", ElemType::Float, {2, 3});
  auto& scan = g.node("Scan", {"X"}, {"Y"});
  test::set_int(scan, "num_scan_inputs", 1);
  test::set_ints(scan, "scan_input_axes", {1});
  test::set_ints(scan, "scan_input_directions", {1});
  test::set_ints(scan, "scan_output_axes", {-1});
  test::set_ints(scan, "scan_output_directions", {1});
  test::set_graph(scan, "body", body);
  // Reading backwards and writing backwards gives X back.
  auto out = run_model(g, {{"X", f32({2, 3}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(out[0].second.tensor().shape(), (Dims{2, 3}));
}

}  // namespace
}  // namespace bough
