// The basic passes on generated graphs of about 20,000 nodes: each pass rewrites every one of
// its many candidates (the node counts after it say so) and the rewritten model computes what
// the comments work out by hand. No times are asserted; on these sizes a pass that scanned
// the graph per candidate took minutes (bench/time-optimize, docs/bench/optimize-time.md).
#include <gtest/gtest.h>

#include "formats/read_model.h"
#include "passes/pass.h"
#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

std::string save(const GraphBuilder& g, const std::string& name, int64_t opset = 17) {
  return test::save_model(test::make_model(g, opset), test::scratch_dir("large_" + name),
                          name + ".onnx");
}

std::string nth(const std::string& prefix, int k) { return prefix + std::to_string(k); }

// A chain of 20,000 Identities from x; an If on the input c reads two values halfway along
// and x itself, which after folding are all x: its branch's three captures become one.
// then: t = (id4999 + id9999) + x = 3x; else: -x.
TEST(LargeGraph, FoldIdentityFoldsAChainAndMergesTheCapturesOfItsValues) {
  constexpr int kCount = 20000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("c", ElemType::Bool);
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    g.node("Identity", {last}, {nth("id", k)});
    last = nth("id", k);
  }
  GraphBuilder then_g("then_g"), else_g("else_g");
  then_g.node("Add", {"id4999", "id9999"}, {"s"});
  then_g.node("Add", {"s", "x"}, {"t"});
  then_g.output("t", ElemType::Float, {2});
  else_g.node("Neg", {"x"}, {"n"});
  else_g.output("n", ElemType::Float, {2});
  g.node("If", {"c"}, {"z"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output(last, ElemType::Float, {2}).output("z", ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "identity"), {"fold-identity"});
  EXPECT_EQ(test::count_ops(opt, "Identity"), 1);  // the one making the graph output
  for (bool c : {true, false}) {
    auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}, {"c", test::boolean({}, {c})}});
    EXPECT_EQ(floats_of(out[0]), (std::vector<float>{1, -2}));
    EXPECT_EQ(floats_of(out[1]), c ? (std::vector<float>{3, -6}) : (std::vector<float>{-1, 2}));
  }
}

// 7,000 Ifs on a constant true in a chain, each branch one node: r_k = r_{k-1} + 1, so
// y = x + 7000.
TEST(LargeGraph, FoldIfInlinesThousandsOfBranches) {
  constexpr int kCount = 7000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("yes", test::boolean({}, {true})).initializer("one", f32({}, {1}));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    GraphBuilder then_g(nth("then", k)), else_g(nth("else", k));
    then_g.node("Add", {last, "one"}, {nth("a", k)});
    then_g.output(nth("a", k), ElemType::Float, {2});
    else_g.node("Neg", {last}, {nth("n", k)});
    else_g.output(nth("n", k), ElemType::Float, {2});
    g.node("If", {"yes"}, {nth("r", k)});
    test::set_graph(g.graph_node_last(), "then_branch", then_g);
    test::set_graph(g.graph_node_last(), "else_branch", else_g);
    last = nth("r", k);
  }
  g.output(last, ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "fold_if"), {"fold-if"});
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  EXPECT_EQ(test::count_ops(opt, "Add"), kCount);
  EXPECT_EQ(test::count_ops(opt, "Neg"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{7001, 6998}));
}

// 7,000 Loops of one trip in a chain, each body v_out = v_in + one (a captured initializer
// of main): y = x + 7000.
TEST(LargeGraph, SingleTripLoopInlinesThousandsOfBodies) {
  constexpr int kCount = 7000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("trips", test::i64({}, {1})).initializer("one", f32({}, {1}));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    GraphBuilder body(nth("body", k));
    body.input(nth("i", k), ElemType::Int64)
        .input(nth("c", k), ElemType::Bool)
        .input(nth("v", k), ElemType::Float, {2});
    body.node("Identity", {nth("c", k)}, {nth("co", k)});
    body.node("Add", {nth("v", k), "one"}, {nth("vo", k)});
    body.output(nth("co", k), ElemType::Bool).output(nth("vo", k), ElemType::Float, {2});
    test::set_graph(g.node("Loop", {"trips", "", last}, {nth("r", k)}), "body", body);
    last = nth("r", k);
  }
  g.output(last, ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "single_trip"), {"single-trip-loop"});
  EXPECT_EQ(test::count_ops(opt, "Loop"), 0);
  EXPECT_EQ(test::count_ops(opt, "Add"), kCount);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{7001, 6998}));
}

// c_0 = one + one, c_k = c_{k-1} + one: 20,000 constant Adds fold into one initializer,
// c_19999 = 20001, and y = x + c_19999 stays.
TEST(LargeGraph, FoldConstantsFoldsAChainOfTwentyThousand) {
  constexpr int kCount = 20000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("one", f32({2}, {1, 1}));
  std::string last = "one";
  for (int k = 0; k < kCount; ++k) {
    g.node("Add", {last, "one"}, {nth("c", k)});
    last = nth("c", k);
  }
  g.node("Add", {"x", last}, {"y"});
  g.output("y", ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "fold_constants"), {"fold-constants"});
  EXPECT_EQ(test::count_ops(opt, "Add"), 1);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{20002, 19999}));
}

// 20,000 Negs nobody reads beside y = -x.
TEST(LargeGraph, DeadCodeRemovesTwentyThousandNodes) {
  constexpr int kCount = 20000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    g.node("Neg", {last}, {nth("n", k)});
    last = nth("n", k);
  }
  g.node("Neg", {"x"}, {"y"});
  g.output("y", ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "dead_code"), {"dead-code"});
  EXPECT_EQ(test::count_ops(opt, "Neg"), 1);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{-1, 2}));
}

// At opset 6, s_k = s_{k-1} + b broadcast from axis 0 (b's dims start at a's first), 10,000
// times: each Add gets its Unsqueeze, and y[i][j] = a[i][j] + 10000 b[i].
TEST(LargeGraph, LegacyBroadcastRewritesTenThousandAdds) {
  constexpr int kCount = 10000;
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2, 3}).input("b", ElemType::Float, {2});
  std::string last = "a";
  for (int k = 0; k < kCount; ++k) {
    auto& add = g.node("Add", {last, "b"}, {nth("s", k)});
    test::set_int(add, "broadcast", 1);
    test::set_int(add, "axis", 0);
    last = nth("s", k);
  }
  g.output(last, ElemType::Float, {2, 3});
  const std::string in = test::save_model(test::make_model(g, 6, 3),
                                          test::scratch_dir("large_legacy_broadcast"), "m.onnx");
  const std::string opt = test::optimize_file(in, {"legacy-broadcast"});
  EXPECT_EQ(test::count_ops(opt, "Unsqueeze"), kCount);
  auto out =
      test::run_plain(opt, {{"a", f32({2, 3}, {0, 1, 2, 3, 4, 5})}, {"b", f32({2}, {1, -1})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{10000, 10001, 10002, -9997, -9996, -9995}));
}

// 5,000 Ifs in a chain, each passing the previous value as a payload input its branches
// declare (then: p + 1, else: -p); legalize-if makes every input a capture. c = true:
// y = x + 5000.
TEST(LargeGraph, LegalizeIfRepairsThousandsOfIfs) {
  constexpr int kCount = 5000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("c", ElemType::Bool);
  g.initializer("one", f32({}, {1}));
  std::string last = "x";
  for (int k = 0; k < kCount; ++k) {
    GraphBuilder then_g(nth("then", k)), else_g(nth("else", k));
    then_g.input(nth("p", k), ElemType::Float, {2});
    then_g.node("Add", {nth("p", k), "one"}, {nth("a", k)});
    then_g.output(nth("a", k), ElemType::Float, {2});
    else_g.input(nth("q", k), ElemType::Float, {2});
    else_g.node("Neg", {nth("q", k)}, {nth("n", k)});
    else_g.output(nth("n", k), ElemType::Float, {2});
    g.node("If", {"c", last}, {nth("r", k)});
    test::set_graph(g.graph_node_last(), "then_branch", then_g);
    test::set_graph(g.graph_node_last(), "else_branch", else_g);
    last = nth("r", k);
  }
  g.output(last, ElemType::Float, {2});
  const std::string opt = test::optimize_file(save(g, "legalize_if"), {"legalize-if"});
  EXPECT_EQ(test::count_ops(opt, "If"), kCount);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}, {"c", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{5001, 4998}));
}

}  // namespace
}  // namespace bough
