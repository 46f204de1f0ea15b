// loop-invariant: body nodes reading only captures and constants move out of the loop.
#include <gtest/gtest.h>

#include <optional>

#include "formats/read_model.h"
#include "passes/pass.h"
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

// A Loop body of `trips` trips carrying v (its inputs i{level}, c{level}, v{level}): `chain`
// invariant Adds l_0 = x + x, l_k = l_{k-1} + x (so the last is (chain + 1) x), then the inner
// Loop when there is one (its result r{level}), and v_out = (r or v) + the last.
GraphBuilder invariant_body(int level, int chain, const GraphBuilder* inner,
                            const std::string& inner_trips) {
  const std::string l = std::to_string(level);
  GraphBuilder body("body" + l);
  body.input("i" + l, ElemType::Int64)
      .input("c" + l, ElemType::Bool)
      .input("v" + l, ElemType::Float, {2});
  std::string last = "x";
  for (int k = 0; k < chain; ++k) {
    const std::string name = "l" + l + "_" + std::to_string(k);
    body.node("Add", {last, "x"}, {name});
    last = name;
  }
  std::string carried = "v" + l;
  if (inner) {
    test::set_graph(body.node("Loop", {inner_trips, "", carried}, {"r" + l}), "body", *inner);
    carried = "r" + l;
  }
  body.node("Add", {carried, last}, {"vo" + l});
  body.node("Identity", {"c" + l}, {"co" + l});
  body.output("co" + l, ElemType::Bool).output("vo" + l, ElemType::Float, {2});
  return body;
}

// `depth` Loops nested in main, each of 2 trips and each body with `chain` invariant Adds;
// the Loop owning body `unknown` (when >= 0) takes its trip count from the input n, so it
// may not run.
GraphBuilder nested_loops(int depth, int chain, int unknown = -1) {
  std::optional<GraphBuilder> inner;
  for (int level = depth - 1; level >= 0; --level) {
    const std::string trips = level + 1 == unknown ? "n" : "two";
    inner = invariant_body(level, chain, inner ? &*inner : nullptr, trips);
  }
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("n", ElemType::Int64);
  g.initializer("two", test::i64({}, {2}));
  test::set_graph(g.node("Loop", {unknown == 0 ? "n" : "two", "", "x"}, {"y"}), "body", *inner);
  g.output("y", ElemType::Float, {2});
  return g;
}

// What nested_loops computes, by the definition: body `level` runs twice, v = inner(v) + inv
// with inv = (chain + 1) x.
double nested_value(int level, int depth, int chain, double x, double v) {
  for (int trip = 0; trip < 2; ++trip) {
    if (level + 1 < depth) v = nested_value(level + 1, depth, chain, x, v);
    v += (chain + 1) * x;
  }
  return v;
}

// How many nodes of `op_type` each graph of a chain of nested Loop bodies holds: main, then
// body 0, body 1, ...
std::vector<int> per_level(const ir::Model& model, const std::string& op_type) {
  std::vector<int> counts;
  for (const ir::Graph* g = model.graph.get(); g;) {
    const ir::Graph* next = nullptr;
    int count = 0;
    for (const auto& n : g->nodes) {
      count += n->op_type == op_type;
      if (const ir::Attribute* body = n->attr("body")) next = body->g.get();
    }
    counts.push_back(count);
    g = next;
  }
  return counts;
}

// One Loop of 3 trips whose body holds 20,000 invariant Adds on x: all leave it in one pass,
// and y = x + 3 (20,001 x).
TEST(LoopInvariant, HoistsTwentyThousandNodesFromOneBody) {
  constexpr int kChain = 20000;
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("three", test::i64({}, {3}));
  test::set_graph(g.node("Loop", {"three", "", "x"}, {"y"}), "body",
                  invariant_body(0, kChain, nullptr, ""));
  g.output("y", ElemType::Float, {2});
  const std::string in =
      test::save_model(test::make_model(g), test::scratch_dir("hoist_large"), "m.onnx");
  const std::string opt = test::optimize_file(in, {"loop-invariant"});
  EXPECT_EQ(per_level(*read_model_file(opt), "Add"), (std::vector<int>{kChain, 1}));
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, -2})}});
  EXPECT_EQ(floats_of(out[0]), (std::vector<float>{60004, -120008}));
}

// 20 nested Loops, three invariant Adds in each body: one run of loop-invariant raises all
// 60 to main, through every level (the basic pipeline stops at 16 rounds, so rising one
// level per round left some behind). A second optimize of the result changes nothing.
// x = [1, 0.5]: every sum is exact in float.
TEST(LoopInvariant, HoistsThroughTwentyNestedLoopsInOnePass) {
  constexpr int kDepth = 20, kChain = 3;
  auto model = read_model_file(test::save_model(test::make_model(nested_loops(kDepth, kChain)),
                                                test::scratch_dir("hoist_nested"), "m.onnx"));
  const passes::PipelineReport once =
      passes::run_pipeline(*model, {passes::find_pass("loop-invariant")}, 1);
  EXPECT_EQ(once.passes[0].changes, kDepth * kChain);
  std::vector<int> want(kDepth + 1, 1);  // each body keeps its carried Add
  want[0] = kDepth * kChain;
  EXPECT_EQ(per_level(*model, "Add"), want);

  const std::string opt =
      test::optimize_file(test::save_model(test::make_model(nested_loops(kDepth, kChain)),
                                           test::scratch_dir("hoist_nested_basic"), "m.onnx"));
  EXPECT_EQ(per_level(*read_model_file(opt), "Add"), want);
  auto again = read_model_file(opt);
  const passes::PipelineReport second = passes::run_pipeline(*again, passes::basic_pipeline());
  EXPECT_EQ(second.rounds, 1);
  for (const passes::PassCount& p : second.passes) EXPECT_EQ(p.changes, 0) << p.name;
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 0.5f})}, {"n", test::i64({}, {2})}});
  EXPECT_EQ(floats_of(out[0]),
            (std::vector<float>{static_cast<float>(nested_value(0, kDepth, kChain, 1, 1)),
                                static_cast<float>(nested_value(0, kDepth, kChain, 0.5, 0.5))}));
}

// The Loop owning body 8 runs n times, which may be none: body 8 keeps its invariants, those
// of the bodies inside it rise to it, and those of the bodies around it to main.
TEST(LoopInvariant, NestedHoistingStopsAtALoopThatMayNotRun) {
  constexpr int kDepth = 12, kChain = 2, kUnknown = 8;
  const std::string opt =
      test::optimize_file(test::save_model(test::make_model(nested_loops(kDepth, kChain, kUnknown)),
                                           test::scratch_dir("hoist_nested_stop"), "m.onnx"),
                          {"loop-invariant"});
  std::vector<int> want(kDepth + 1, 1);
  want[0] = kUnknown * kChain;
  want[kUnknown + 1] = 1 + (kDepth - kUnknown) * kChain;  // index 0 is main
  EXPECT_EQ(per_level(*read_model_file(opt), "Add"), want);
  auto out = test::run_plain(opt, {{"x", f32({2}, {1, 0.5f})}, {"n", test::i64({}, {2})}});
  EXPECT_EQ(floats_of(out[0]),
            (std::vector<float>{static_cast<float>(nested_value(0, kDepth, kChain, 1, 1)),
                                static_cast<float>(nested_value(0, kDepth, kChain, 0.5, 0.5))}));
}

}  // namespace
}  // namespace bough
