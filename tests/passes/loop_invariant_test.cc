// loop-invariant: body nodes reading only captures and constants move out of the loop.
#include <gtest/gtest.h>

#include "formats/read_model.h"
#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// The ops of the main graph's nodes, in order.
std::vector<std::string> main_ops(const std::string& path) {
  std::vector<std::string> ops;
  auto model = read_model_file(path);
  for (const auto& n : model->graph->nodes) ops.push_back(n->op_type);
  return ops;
}

// Loop body: inv = w * x (both captured), inv2 = inv + b (b a body initializer) are
// invariant and move out; v_next = v + inv2 reads a carried value and stays; the scan
// output sq = w * w is invariant but a body output, so it stays. x = [1, 2], w = [2, 3],
// b = [1, 1], 3 trips from v = x: inv2 = [3, 7], v = x + 3 * inv2 = [10, 23], every scan
// row w * w = [4, 9].
GraphBuilder loop_model() {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2});
  body.initializer("b", f32({2}, {1, 1}));
  body.node("Mul", {"w", "x"}, {"inv"});
  body.node("Add", {"inv", "b"}, {"inv2"});
  body.node("Add", {"v_in", "inv2"}, {"v_next"});
  body.node("Mul", {"w", "w"}, {"sq"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output("cond_out", ElemType::Bool)
      .output("v_next", ElemType::Float, {2})
      .output("sq", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("w", f32({2}, {2, 3}));
  g.initializer("trips", test::i64({}, {3}));
  test::set_graph(g.node("Loop", {"trips", "", "x"}, {"v", "rows"}), "body", body);
  g.output("v", ElemType::Float, {2}).output("rows", ElemType::Float, {3, 2});
  return g;
}

TEST(LoopInvariant, HoistsChainsReadingCapturesAndConstants) {
  GraphBuilder g = loop_model();
  const std::string in =
      test::save_model(test::make_model(g), test::scratch_dir("hoist"), "m.onnx");
  std::string opt = test::optimize_file(in, {"loop-invariant"});
  EXPECT_EQ(main_ops(opt), (std::vector<std::string>{"Mul", "Add", "Loop"}));
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{10, 23}));
  EXPECT_EQ(floats_of(out[1]), (std::vector<float>{4, 9, 4, 9, 4, 9}));
}

// The golden text: Mul and Add before the Loop, the body capturing inv2 (and w for sq),
// the body initializer b copied into main as b_1 (the body's own b stays until dead-code).
TEST(LoopInvariant, Golden) {
  test::check_golden(loop_model(), "loop-invariant", test::report_line("loop-invariant", 2));
}

// A Scan body: e = Exp(k) of a captured value moves out; y = s + e stays. k = [0, 0]:
// every row of xs plus 1.
TEST(LoopInvariant, HoistsOutOfScanBodies) {
  GraphBuilder body("scan_body");
  body.input("s", ElemType::Float, {2});
  body.node("Exp", {"k"}, {"e"});
  body.node("Add", {"s", "e"}, {"y"});
  body.output("y", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("xs", ElemType::Float, {2, 2}).input("k", ElemType::Float, {2});
  test::set_graph(g.node("Scan", {"xs"}, {"ys"}), "body", body);
  test::set_int(g.graph_node_last(), "num_scan_inputs", 1);
  g.output("ys", ElemType::Float, {2, 2});
  const std::string in =
      test::save_model(test::make_model(g), test::scratch_dir("hoist_scan"), "m.onnx");
  std::string opt = test::optimize_file(in, {"loop-invariant"});
  EXPECT_EQ(main_ops(opt), (std::vector<std::string>{"Exp", "Scan"}));
  auto out = test::run_plain(opt, {{"xs", f32({2, 2}, {1, 2, 3, 4})}, {"k", f32({2}, {0, 0})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{2, 3, 4, 5}));
}

// Loops that may not run keep their bodies: hoisted, Gather(k, 0) would fail on an empty k
// even when the loop runs zero times. A Loop on an input trip count, one whose condition
// is an input, and a Scan over a sequence of unknown length.
TEST(LoopInvariant, LeavesLoopsThatMayNotRun) {
  for (const std::string case_name : {"input_trips", "input_cond"}) {
    GraphBuilder body("body");
    body.input("i", ElemType::Int64)
        .input("cond_in", ElemType::Bool)
        .input("v_in", ElemType::Float, {});
    body.initializer("zero", test::i64({}, {0}));
    body.node("Gather", {"k", "zero"}, {"first"});
    body.node("Add", {"v_in", "first"}, {"v_next"});
    body.node("Identity", {"cond_in"}, {"cond_out"});
    body.output("cond_out", ElemType::Bool).output("v_next", ElemType::Float, {});
    GraphBuilder g("main");
    g.input("k", ElemType::Float, {-1}).input("v0", ElemType::Float, {});
    if (case_name == "input_trips") {
      g.input("trips", ElemType::Int64);
      test::set_graph(g.node("Loop", {"trips", "", "v0"}, {"v"}), "body", body);
    } else {
      g.input("go", ElemType::Bool);
      g.initializer("trips", test::i64({}, {5}));
      test::set_graph(g.node("Loop", {"trips", "go", "v0"}, {"v"}), "body", body);
    }
    g.output("v", ElemType::Float, {});
    std::string opt =
        test::optimize_file(test::save_scratch(g, "hoist_" + case_name), {"loop-invariant"});
    EXPECT_EQ(main_ops(opt), (std::vector<std::string>{"Loop"})) << case_name;
  }
  GraphBuilder body("scan_body");
  body.input("s", ElemType::Float, {2});
  body.node("Exp", {"k"}, {"e"});
  body.node("Add", {"s", "e"}, {"y"});
  body.output("y", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("xs", ElemType::Float, {-1, 2}).input("k", ElemType::Float, {2});
  test::set_graph(g.node("Scan", {"xs"}, {"ys"}), "body", body);
  test::set_int(g.graph_node_last(), "num_scan_inputs", 1);
  g.output("ys", ElemType::Float, {-1, 2});
  std::string opt =
      test::optimize_file(test::save_scratch(g, "hoist_scan_unknown"), {"loop-invariant"});
  EXPECT_EQ(main_ops(opt), (std::vector<std::string>{"Scan"}));
}

}  // namespace
}  // namespace bough
