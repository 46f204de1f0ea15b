// Golden before/after text (test::check_golden) for fold-constants, fold-if, fold-identity
// and dead-code; the other passes' golden tests sit with their own tests. The expected
// "after" text was derived by hand from the "before" text and the pass's rule (see each
// model's comment); then the optimized file runs and gives the values worked out by hand.
#include <gtest/gtest.h>

#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// t = Transpose(m) and the Constant k fold (2 nodes, then z = Mul(y, k)'s input k is an
// initializer); in the If's then-branch q = w * w (w read through a capture) folds, while
// r = x - q (x an input) and z (a graph output) stay. Three folds in the first round, none
// after. x = [[1,2,3],[4,5,6]], m = [[1,2],[3,4],[5,6]]: y = x + m^T = [[2,5,8],[6,9,12]],
// z = 2y; p = true, v = [1, 1]: r = v - w*w = [1-9, 1-16].
GraphBuilder constants_model() {
  GraphBuilder then_g("then_g");
  then_g.node("Mul", {"w", "w"}, {"q"});
  then_g.node("Sub", {"v", "q"}, {"r1"});
  then_g.output("r1", ElemType::Float, {2});
  GraphBuilder else_g("else_g");
  else_g.node("Neg", {"v"}, {"r2"});
  else_g.output("r2", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3}).input("v", ElemType::Float, {2}).input("p", ElemType::Bool);
  g.initializer("m", f32({3, 2}, {1, 2, 3, 4, 5, 6}));
  g.initializer("w", f32({2}, {3, 4}));
  test::set_ints(g.node("Transpose", {"m"}, {"t"}), "perm", {1, 0});
  g.node("Add", {"x", "t"}, {"y"});
  test::set_tensor(g.node("Constant", {}, {"k"}), "value", f32({1}, {2}));
  g.node("Mul", {"y", "k"}, {"z"});
  g.node("If", {"p"}, {"r"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output("z", ElemType::Float, {2, 3}).output("r", ElemType::Float, {2});
  return g;
}

TEST(PassGolden, FoldConstants) {
  std::string out = test::check_golden(constants_model(), "fold-constants",
                                       test::report_line("fold-constants", 3));
  EXPECT_EQ(test::count_ops(out, "Transpose"), 0);
  auto y = test::run_plain(out, {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})},
                                 {"v", f32({2}, {1, 1})},
                                 {"p", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{4, 10, 16, 12, 18, 24}));
  EXPECT_EQ(floats_of(y[1]), (std::vector<float>{-8, -15}));
}

// If(c = true): the then-branch's initializer k and value t move into main (t takes the
// If's output name r); the second If(c) returns the input x itself, which becomes
// r2 = Identity(x). Two Ifs folded. x = [1, 2]: r = x + k = [11, 22], y = r * r2.
GraphBuilder if_model() {
  GraphBuilder then1("then1");
  then1.initializer("k", f32({2}, {10, 20}));
  then1.node("Add", {"x", "k"}, {"t"});
  then1.output("t", ElemType::Float, {2});
  GraphBuilder else1("else1");
  else1.node("Neg", {"x"}, {"n1"});
  else1.output("n1", ElemType::Float, {2});
  GraphBuilder then2("then2");
  then2.output("x", ElemType::Float, {2});
  GraphBuilder else2("else2");
  else2.node("Abs", {"x"}, {"n2"});
  else2.output("n2", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {true}));
  g.node("If", {"c"}, {"r"}, "first");
  test::set_graph(g.graph_node_last(), "then_branch", then1);
  test::set_graph(g.graph_node_last(), "else_branch", else1);
  g.node("If", {"c"}, {"r2"}, "second");
  test::set_graph(g.graph_node_last(), "then_branch", then2);
  test::set_graph(g.graph_node_last(), "else_branch", else2);
  g.node("Mul", {"r", "r2"}, {"y"});
  g.output("y", ElemType::Float, {2});
  return g;
}

TEST(PassGolden, FoldIf) {
  std::string out = test::check_golden(if_model(), "fold-if", test::report_line("fold-if", 2));
  auto y = test::run_plain(out, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{11, 44}));
}

// i1 = Identity(x), i2 = Identity(i1) go; y = Add(i2, i1) reads x twice; the If's
// then-branch captured both i1 and i2 — now one capture of x; the else-branch's capture of
// i1 is renamed x. o = Identity(y) is a graph output and stays. Two folded.
// x = [1, -2]: o = 2x = [2, -4]; p = true: s = x + x = [2, -4]; p = false: |x| = [1, 2].
GraphBuilder identity_model() {
  GraphBuilder then_g("then_g");
  then_g.node("Add", {"i1", "i2"}, {"s"});
  then_g.output("s", ElemType::Float, {2});
  GraphBuilder else_g("else_g");
  else_g.node("Abs", {"i1"}, {"a"});
  else_g.output("a", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("p", ElemType::Bool);
  g.node("Identity", {"x"}, {"i1"});
  g.node("Identity", {"i1"}, {"i2"});
  g.node("Add", {"i2", "i1"}, {"y"});
  g.node("Identity", {"y"}, {"o"});
  g.node("If", {"p"}, {"r"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output("o", ElemType::Float, {2}).output("r", ElemType::Float, {2});
  return g;
}

TEST(PassGolden, FoldIdentity) {
  std::string out =
      test::check_golden(identity_model(), "fold-identity", test::report_line("fold-identity", 2));
  auto t = test::run_plain(out, {{"x", f32({2}, {1, -2})}, {"p", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(t[0]), (std::vector<float>{2, -4}));
  EXPECT_EQ(floats_of(t[1]), (std::vector<float>{2, -4}));
  auto e = test::run_plain(out, {{"x", f32({2}, {1, -2})}, {"p", test::boolean({}, {false})}});
  EXPECT_EQ(floats_of(e[1]), (std::vector<float>{1, 2}));
}

// Removed: the unused Neg; the unused If "spare" with its branches; the unused Loop (and
// its trip-count initializer `trips`); the
// unused initializer u; the If's second output b (nobody reads it) with both branches'
// b-values (Mul and Abs), and so the then-branch's capture of u2 and main's initializer u2.
// Kept: a = If(p) { x + w } else { x - x }, y = a * a. 10 things removed in all: Neg, the
// If "spare", Loop, If output b, Mul, Abs, capture u2 in then_b, and the initializers u,
// u2, trips.
GraphBuilder dead_model() {
  GraphBuilder then_g("then_b");
  then_g.node("Add", {"x", "w"}, {"a1"});
  then_g.node("Mul", {"x", "u2"}, {"b1"});
  then_g.output("a1", ElemType::Float, {2}).output("b1", ElemType::Float, {2});
  GraphBuilder else_g("else_b");
  else_g.node("Sub", {"x", "x"}, {"a2"});
  else_g.node("Abs", {"x"}, {"b2"});
  else_g.output("a2", ElemType::Float, {2}).output("b2", ElemType::Float, {2});
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2});
  body.node("Add", {"v_in", "w"}, {"v_next"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool).output("v_next", ElemType::Float, {2});
  GraphBuilder spare_then("spare_then");
  spare_then.node("Neg", {"w"}, {"sn"});
  spare_then.output("sn", ElemType::Float, {2});
  GraphBuilder spare_else("spare_else");
  spare_else.node("Abs", {"x"}, {"sa"});
  spare_else.output("sa", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("p", ElemType::Bool);
  g.initializer("u", f32({2}, {0, 0}));
  g.initializer("u2", f32({2}, {5, 5}));
  g.initializer("w", f32({2}, {1, 2}));
  g.initializer("trips", test::i64({}, {3}));
  g.node("Neg", {"x"}, {"unused"});
  g.node("If", {"p"}, {"spare"}, "spare");
  test::set_graph(g.graph_node_last(), "then_branch", spare_then);
  test::set_graph(g.graph_node_last(), "else_branch", spare_else);
  test::set_graph(g.node("Loop", {"trips", "", "x"}, {"looped"}), "body", body);
  g.node("If", {"p"}, {"a", "b"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.node("Mul", {"a", "a"}, {"y"});
  g.output("y", ElemType::Float, {2});
  return g;
}

TEST(PassGolden, DeadCode) {
  std::string out =
      test::check_golden(dead_model(), "dead-code", test::report_line("dead-code", 10));
  auto t = test::run_plain(out, {{"x", f32({2}, {1, 2})}, {"p", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(t[0]), (std::vector<float>{4, 16}));  // (x + w)^2
  auto e = test::run_plain(out, {{"x", f32({2}, {1, 2})}, {"p", test::boolean({}, {false})}});
  EXPECT_EQ(floats_of(e[0]), (std::vector<float>{0, 0}));
}

}  // namespace
}  // namespace bough
