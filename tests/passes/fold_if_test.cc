// fold-if on the cases optimizers have crashed on. Each model is saved, optimized with the
// basic pipeline (fold-if needs fold-constants for a computed condition and dead-code for
// what the untaken branch leaves behind), checked, written, reloaded and run without session
// passes; the outputs are compared with values worked out by hand in the comments.
#include <gtest/gtest.h>

#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

std::string save(const GraphBuilder& g, const std::string& name) {
  return test::save_scratch(g, "fold_if_" + name);
}

// Sets both branches of the If added last.
void branches(GraphBuilder& g, const GraphBuilder& then_g, const GraphBuilder& else_g) {
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
}

GraphBuilder negation(const std::string& name, const std::string& out) {
  GraphBuilder g(name);
  g.node("Neg", {"x"}, {out});
  g.output(out, ElemType::Float, {2});
  return g;
}

// then-branch: returns its own initializer k = [10, 20]. r = If(true) = k, y = r + x.
TEST(FoldIf, TakenBranchReturnsAnInitializer) {
  GraphBuilder then_g("then_g");
  then_g.initializer("k", f32({2}, {10, 20}));
  then_g.output("k", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {true}));
  g.node("If", {"c"}, {"r"}, "gate");
  branches(g, then_g, negation("else_g", "n"));
  g.node("Add", {"r", "x"}, {"y"});
  g.output("r", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "initializer"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{10, 20}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{11, 22}));
}

// then-branch: returns the main input x itself. y = If(true) = x, z = y * y.
TEST(FoldIf, TakenBranchReturnsAnOuterValue) {
  GraphBuilder then_g("then_g");
  then_g.output("x", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {true}));
  g.node("If", {"c"}, {"y"});
  branches(g, then_g, negation("else_g", "n"));
  g.node("Mul", {"y", "y"}, {"z"});
  g.output("y", ElemType::Float, {2}).output("z", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "outer"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{1, -2}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{1, 4}));
}

// else-branch (c = false): no nodes, outputs (x, x, w) — an input twice and an initializer
// of main. The If's outputs a, b, d feed s = a + b + d.
TEST(FoldIf, TakenBranchIsEmptyApartFromItsOutputs) {
  GraphBuilder then_g("then_g");
  then_g.node("Neg", {"x"}, {"n1"});
  then_g.node("Neg", {"x"}, {"n2"});
  then_g.node("Neg", {"x"}, {"n3"});
  then_g.output("n1", ElemType::Float, {2})
      .output("n2", ElemType::Float, {2})
      .output("n3", ElemType::Float, {2});
  GraphBuilder else_g("else_g");
  else_g.output("x", ElemType::Float, {2})
      .output("x", ElemType::Float, {2})
      .output("w", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {false}));
  g.initializer("w", f32({2}, {100, 200}));
  g.node("If", {"c"}, {"a", "b", "d"});
  branches(g, then_g, else_g);
  g.node("Add", {"a", "b"}, {"ab"});
  g.node("Add", {"ab", "d"}, {"s"});
  g.output("s", ElemType::Float, {2}).output("a", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "empty"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{102, 204}));  // 2x + w
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{1, 2}));
}

// The inner If's condition is g = Not(f), computed in main from the initializer f = false,
// and read two levels down. After folding, the outer If (on the input p) remains and its
// then-branch is Neg(x) with no If left: p ? -x : x + x.
TEST(FoldIf, ConditionFromAnOuterScopeOfANestedIf) {
  GraphBuilder inner_else("inner_else");
  inner_else.node("Abs", {"x"}, {"ab"});
  inner_else.output("ab", ElemType::Float, {2});
  GraphBuilder outer_then("outer_then");
  outer_then.node("If", {"g"}, {"inner"});
  branches(outer_then, negation("inner_then", "ng"), inner_else);
  outer_then.output("inner", ElemType::Float, {2});
  GraphBuilder outer_else("outer_else");
  outer_else.node("Add", {"x", "x"}, {"twice"});
  outer_else.output("twice", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("p", ElemType::Bool);
  g.initializer("f", test::boolean({}, {false}));
  g.node("Not", {"f"}, {"g"});
  g.node("If", {"p"}, {"y"});
  branches(g, outer_then, outer_else);
  g.output("y", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "nested_condition"));
  EXPECT_EQ(test::count_ops(opt, "If"), 1);
  EXPECT_EQ(test::count_ops(opt, "Abs"), 0);
  EXPECT_EQ(test::count_ops(opt, "Not"), 0);
  auto t = test::run_plain(opt, {{"x", f32({2}, {-1, 2})}, {"p", test::boolean({}, {true})}});
  EXPECT_EQ(floats_of(t[0]), (std::vector<float>{1, -2}));
  auto e = test::run_plain(opt, {{"x", f32({2}, {-1, 2})}, {"p", test::boolean({}, {false})}});
  EXPECT_EQ(floats_of(e[0]), (std::vector<float>{-2, 4}));
}

// The then-branch computes s = x * 2 and runs a Loop 3 times whose body adds s (a branch
// value it captures) to v, starting from x: v = x + 3 * 2x = 7x. Main also defines its own
// s = Abs(x), so the moved s must be renamed, and the body's capture with it.
TEST(FoldIf, FoldedBranchHoldsALoopCapturingBranchValues) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2});
  body.node("Add", {"v_in", "s"}, {"v_next"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool).output("v_next", ElemType::Float, {2});
  GraphBuilder then_g("then_g");
  then_g.initializer("two", f32({1}, {2}));
  then_g.initializer("trips", test::i64({}, {3}));
  then_g.node("Mul", {"x", "two"}, {"s"});
  test::set_graph(then_g.node("Loop", {"trips", "", "x"}, {"v"}), "body", body);
  then_g.output("v", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {true}));
  g.node("Abs", {"x"}, {"s"});
  g.node("If", {"c"}, {"y"});
  branches(g, then_g, negation("else_g", "n"));
  g.output("y", ElemType::Float, {2}).output("s", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "loop_in_branch"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  EXPECT_EQ(test::count_ops(opt, "Loop"), 1);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{7, -14}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{1, 2}));
}

// Two Ifs fold, and each taken branch defines an initializer k and a value t:
// y1 = (x + 1) * x from If(true), y2 = (x + 10)^2 from If(false).
TEST(FoldIf, TwoFoldedBranchesDefineTheSameNames) {
  GraphBuilder then1("then1");
  then1.initializer("k", f32({1}, {1}));
  then1.node("Add", {"x", "k"}, {"t"});
  then1.node("Mul", {"t", "x"}, {"o1"});
  then1.output("o1", ElemType::Float, {2});
  GraphBuilder else2("else2");
  else2.initializer("k", f32({1}, {10}));
  else2.node("Add", {"x", "k"}, {"t"});
  else2.node("Mul", {"t", "t"}, {"o2"});
  else2.output("o2", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c1", test::boolean({}, {true}));
  g.initializer("c2", test::boolean({}, {false}));
  g.node("If", {"c1"}, {"y1"});
  branches(g, then1, negation("else1", "n1"));
  g.node("If", {"c2"}, {"y2"});
  branches(g, negation("then2", "n2"), else2);
  g.output("y1", ElemType::Float, {2}).output("y2", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "same_names"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{2, 6}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{121, 144}));
}

// In a Loop body, If(cb) where cb is a Constant of the body: true takes v + x (v a body
// input, x captured from main two levels up). Two trips from v = x: 3x.
TEST(FoldIf, FoldedIfInsideALoopBodyOnABodyConstant) {
  GraphBuilder then_g("then_g");
  then_g.node("Add", {"v_in", "x"}, {"w"});
  then_g.output("w", ElemType::Float, {2});
  GraphBuilder else_g("else_g");
  else_g.node("Sub", {"v_in", "x"}, {"w2"});
  else_g.output("w2", ElemType::Float, {2});
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2});
  test::set_tensor(body.node("Constant", {}, {"cb"}), "value", test::boolean({}, {true}));
  body.node("If", {"cb"}, {"v_next"});
  branches(body, then_g, else_g);
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool).output("v_next", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("trips", test::i64({}, {2}));
  test::set_graph(g.node("Loop", {"trips", "", "x"}, {"v"}), "body", body);
  g.output("v", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "if_in_loop"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  EXPECT_EQ(test::count_ops(opt, "Sub"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{3, 6}));
}

// Constant Ifs nested three deep all fold, from the outside in: c ? (c ? (c ? x*x : -x) :
// -x) : -x = x*x.
TEST(FoldIf, NestedConstantIfsAllFold) {
  GraphBuilder level3("level3");
  level3.node("Mul", {"x", "x"}, {"sq"});
  level3.output("sq", ElemType::Float, {2});
  GraphBuilder level2("level2");
  level2.node("If", {"c"}, {"l3"});
  branches(level2, level3, negation("n3", "m3"));
  level2.output("l3", ElemType::Float, {2});
  GraphBuilder level1("level1");
  level1.node("If", {"c"}, {"l2"});
  branches(level1, level2, negation("n2", "m2"));
  level1.output("l2", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c", test::boolean({}, {true}));
  g.node("If", {"c"}, {"y"});
  branches(g, level1, negation("n1", "m1"));
  g.output("y", ElemType::Float, {2});
  std::string opt = test::optimize_file(save(g, "nested_three"));
  EXPECT_EQ(test::count_ops(opt, "If"), 0);
  EXPECT_EQ(test::count_ops(opt, "Neg"), 0);
  auto out = test::run_plain(opt, {{"x", f32({2}, {3, -4})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{9, 16}));
}

}  // namespace
}  // namespace bough
