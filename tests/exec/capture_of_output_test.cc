// A subgraph that captures a value which is also an output of the graph around it. The
// owner of that graph computes such an output straight into its own destination (a Loop's
// next carried value, an If's output), so the capture must follow it there on every call.
// Every combination of owners is here, at depth 2 and 3, with the value also read by a
// later node of the enclosing graph. Expected values are worked out by hand in comments.
#include <gtest/gtest.h>

#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// Runs the model twice on the same session: the second run must repeat the first.
std::vector<std::vector<float>> run_twice(const GraphBuilder& g, const NamedValues& inputs) {
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("capout"), "m.onnx");
  Session session(Model::load(path));
  std::vector<std::vector<float>> first;
  for (const auto& [name, v] : session.run(inputs)) first.push_back(floats_of(v.tensor()));
  std::vector<std::vector<float>> second;
  for (const auto& [name, v] : session.run(inputs)) second.push_back(floats_of(v.tensor()));
  EXPECT_EQ(first, second);
  return first;
}

void set_branches(onnxpb::NodeProto& node, const GraphBuilder& then_g, const GraphBuilder& else_g) {
  test::set_graph(node, "then_branch", then_g);
  test::set_graph(node, "else_branch", else_g);
}

// then: t = x_next * 2; else: e = |x_next|. Reads `x_next` from an enclosing scope.
void doubled_or_abs(onnxpb::NodeProto& node, const std::string& x_next, const std::string& tag) {
  GraphBuilder t("t" + tag), e("e" + tag);
  t.node("Mul", {x_next, "two"}, {"t" + tag});
  t.output_untyped("t" + tag);
  e.node("Abs", {x_next}, {"e" + tag});
  e.output_untyped("e" + tag);
  set_branches(node, t, e);
}

GraphBuilder main_graph() {
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x0", ElemType::Float, {2});
  g.initializer("one", f32({}, {1}))
      .initializer("two", f32({}, {2}))
      .initializer("M", Tensor::scalar_i64(3));
  return g;
}

NamedValues inputs(bool c) { return {{"c", test::boolean({}, {c})}, {"x0", f32({2}, {1, -2})}}; }

TEST(CaptureOfOutput, IfInLoopReadsTheCarriedOutput) {
  // Body: x_next = x + 1 (the carried output), s = If(c, x_next*2, |x_next|), after = x_next - 1.
  // x: [1,-2] -> [2,-1] -> [3,0] -> [4,1].
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool).input("x", ElemType::Float, {2});
  body.node("Add", {"x", "one"}, {"x_next"});
  doubled_or_abs(body.node("If", {"c"}, {"s"}, "inner"), "x_next", "1");
  body.node("Sub", {"x_next", "one"}, {"after"});
  body.output_untyped("cin").output_untyped("x_next").output_untyped("s").output_untyped("after");
  GraphBuilder g = main_graph();
  g.output("x_final", ElemType::Float, {2})
      .output("ss", ElemType::Float, {3, 2})
      .output("afters", ElemType::Float, {3, 2});
  test::set_graph(g.node("Loop", {"M", "", "x0"}, {"x_final", "ss", "afters"}, "loop"), "body",
                  body);

  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[0], (std::vector<float>{4, 1}));
  EXPECT_EQ(out[1], (std::vector<float>{4, -2, 6, 0, 8, 2}));
  EXPECT_EQ(out[2], (std::vector<float>{1, -2, 2, -1, 3, 0}));
  out = run_twice(g, inputs(false));
  EXPECT_EQ(out[1], (std::vector<float>{2, 1, 3, 0, 4, 1}));
}

TEST(CaptureOfOutput, IfInIfReadsTheOuterBranchOutput) {
  // Outer then: a = x0 + x0 (an output of the branch), b = If(c, a*2, |a|), d = a + 1.
  // x0 = [1,-2]: a = [2,-4]; c true: b = [4,-8]; c false: b = [2,4]; d = [3,-3].
  GraphBuilder outer_t("ot");
  outer_t.node("Add", {"x0", "x0"}, {"a"});
  doubled_or_abs(outer_t.node("If", {"c"}, {"b"}, "inner"), "a", "1");
  outer_t.node("Add", {"a", "one"}, {"d"});
  outer_t.output_untyped("a").output_untyped("b").output_untyped("d");
  GraphBuilder outer_e("oe");
  outer_e.output_untyped("x0").output_untyped("x0").output_untyped("x0");
  GraphBuilder g = main_graph();
  g.input("go", ElemType::Bool);
  g.output("A", ElemType::Float, {2})
      .output("B", ElemType::Float, {2})
      .output("D", ElemType::Float, {2});
  set_branches(g.node("If", {"go"}, {"A", "B", "D"}, "outer"), outer_t, outer_e);

  NamedValues in = inputs(true);
  in.emplace_back("go", test::boolean({}, {true}));
  auto out = run_twice(g, in);
  EXPECT_EQ(out[0], (std::vector<float>{2, -4}));
  EXPECT_EQ(out[1], (std::vector<float>{4, -8}));
  EXPECT_EQ(out[2], (std::vector<float>{3, -3}));
  in[0].second = test::boolean({}, {false});
  out = run_twice(g, in);
  EXPECT_EQ(out[1], (std::vector<float>{2, 4}));
}

TEST(CaptureOfOutput, IfInScanReadsTheStateOutput) {
  // Scan over rows of X = [[1,1],[2,2],[3,3]]; body: s_next = s + row (the state output),
  // y = If(c, s_next*2, |s_next|). s0 = [1,-2]: s_next = [2,-1], [4,1], [7,4].
  GraphBuilder body("body");
  body.input("s", ElemType::Float, {2}).input("row", ElemType::Float, {2});
  body.node("Add", {"s", "row"}, {"s_next"});
  doubled_or_abs(body.node("If", {"c"}, {"y"}, "inner"), "s_next", "1");
  body.output_untyped("s_next").output_untyped("y");
  GraphBuilder g = main_graph();
  g.initializer("X", f32({3, 2}, {1, 1, 2, 2, 3, 3}));
  g.output("s_final", ElemType::Float, {2}).output("ys", ElemType::Float, {3, 2});
  auto& scan = g.node("Scan", {"x0", "X"}, {"s_final", "ys"}, "scan");
  test::set_int(scan, "num_scan_inputs", 1);
  test::set_graph(scan, "body", body);

  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[0], (std::vector<float>{7, 4}));
  EXPECT_EQ(out[1], (std::vector<float>{4, -2, 8, 2, 14, 8}));
  out = run_twice(g, inputs(false));
  EXPECT_EQ(out[1], (std::vector<float>{2, 1, 4, 1, 7, 4}));
}

TEST(CaptureOfOutput, LoopInIfReadsTheBranchOutput) {
  // Then branch: a = x0 + 1 (a branch output); Loop 3 times v_next = v + a from v = x0.
  // x0 = [1,-2]: a = [2,-1]; v = x0 + 3a = [7,-5].
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool).input("v", ElemType::Float, {2});
  body.node("Add", {"v", "a"}, {"v_next"});
  body.output_untyped("cin").output_untyped("v_next");
  GraphBuilder t("t");
  t.node("Add", {"x0", "one"}, {"a"});
  test::set_graph(t.node("Loop", {"M", "", "x0"}, {"v_final"}, "loop"), "body", body);
  t.output_untyped("a").output_untyped("v_final");
  GraphBuilder e("e");
  e.output_untyped("x0").output_untyped("x0");
  GraphBuilder g = main_graph();
  g.output("A", ElemType::Float, {2}).output("V", ElemType::Float, {2});
  set_branches(g.node("If", {"c"}, {"A", "V"}, "outer"), t, e);

  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[0], (std::vector<float>{2, -1}));
  EXPECT_EQ(out[1], (std::vector<float>{7, -5}));
}

TEST(CaptureOfOutput, ScanInLoopReadsTheCarriedOutput) {
  // Loop body: x_next = x + 1 (carried output); Scan over R = [[1,0],[0,1]] with state
  // s_next = s + row * x_next from s = x_next; its final state is a scan output of the Loop.
  // x: [2,-1], [3,0], [4,1]; state: x_next + [x_next0, x_next1] = 2 * x_next.
  GraphBuilder scan_body("scan_body");
  scan_body.input("s", ElemType::Float, {2}).input("row", ElemType::Float, {2});
  scan_body.node("Mul", {"row", "x_next"}, {"p"});
  scan_body.node("Add", {"s", "p"}, {"s_next"});
  scan_body.output_untyped("s_next");
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool).input("x", ElemType::Float, {2});
  body.node("Add", {"x", "one"}, {"x_next"});
  auto& scan = body.node("Scan", {"x_next", "R"}, {"s_final"}, "scan");
  test::set_int(scan, "num_scan_inputs", 1);
  test::set_graph(scan, "body", scan_body);
  body.output_untyped("cin").output_untyped("x_next").output_untyped("s_final");
  GraphBuilder g = main_graph();
  g.initializer("R", f32({2, 2}, {1, 0, 0, 1}));
  g.output("x_final", ElemType::Float, {2}).output("ss", ElemType::Float, {3, 2});
  test::set_graph(g.node("Loop", {"M", "", "x0"}, {"x_final", "ss"}, "loop"), "body", body);

  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[0], (std::vector<float>{4, 1}));
  EXPECT_EQ(out[1], (std::vector<float>{4, -2, 6, 0, 8, 2}));
}

TEST(CaptureOfOutput, DepthThreeIfInIfInLoop) {
  // Loop body: x_next = x + 1 (carried output); If(c) whose then-branch holds an If(c) that
  // reads x_next two scopes up. c true: y = x_next * 2; c false (outer else): y = x_next.
  GraphBuilder inner_t("it"), inner_e("ie");
  inner_t.node("Mul", {"x_next", "two"}, {"deep"});
  inner_t.output_untyped("deep");
  inner_e.output_untyped("x_next");
  GraphBuilder mid_t("mt"), mid_e("me");
  set_branches(mid_t.node("If", {"c"}, {"mid"}, "inner"), inner_t, inner_e);
  mid_t.output_untyped("mid");
  mid_e.output_untyped("x_next");
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool).input("x", ElemType::Float, {2});
  body.node("Add", {"x", "one"}, {"x_next"});
  set_branches(body.node("If", {"c"}, {"y"}, "middle"), mid_t, mid_e);
  body.output_untyped("cin").output_untyped("x_next").output_untyped("y");
  GraphBuilder g = main_graph();
  g.output("x_final", ElemType::Float, {2}).output("ys", ElemType::Float, {3, 2});
  test::set_graph(g.node("Loop", {"M", "", "x0"}, {"x_final", "ys"}, "loop"), "body", body);

  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[1], (std::vector<float>{4, -2, 6, 0, 8, 2}));
  out = run_twice(g, inputs(false));
  EXPECT_EQ(out[1], (std::vector<float>{2, -1, 3, 0, 4, 1}));
}

TEST(CaptureOfOutput, IfInMainReadsAGraphOutput) {
  // Main: a = x0 + 1 is a graph output, and an If reads it: b = a*2 or |a|, d = a - 1.
  GraphBuilder g = main_graph();
  g.node("Add", {"x0", "one"}, {"a"});
  doubled_or_abs(g.node("If", {"c"}, {"b"}, "gate"), "a", "1");
  g.node("Sub", {"a", "one"}, {"d"});
  g.output("a", ElemType::Float, {2})
      .output("b", ElemType::Float, {2})
      .output("d", ElemType::Float, {2});
  auto out = run_twice(g, inputs(true));
  EXPECT_EQ(out[0], (std::vector<float>{2, -1}));
  EXPECT_EQ(out[1], (std::vector<float>{4, -2}));
  EXPECT_EQ(out[2], (std::vector<float>{1, -2}));
}

}  // namespace
}  // namespace bough
