// Loop captures written as loop-carried values (`bough convert --captures carried`, the
// default) run the same as when read by name, at any depth. Expected values are worked
// out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/session.h"
#include "formats/onnx/loop_captures.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// main: M = 3, k (outer), x0. Outer Loop body: x_next = inner(x) where the inner Loop
// (2 iterations) adds k to its carried value each time, reading k from two levels up;
// the outer body also adds k once more. So each outer iteration adds 3k.
std::string nested_loops(const std::string& dir) {
  GraphBuilder inner("inner");
  inner.input("j", ElemType::Int64).input("ci", ElemType::Bool).input("y", ElemType::Float, {2});
  inner.node("Add", {"y", "k"}, {"y_next"});
  inner.node("Identity", {"ci"}, {"co"});
  inner.output_untyped("co").output_untyped("y_next");
  GraphBuilder outer("outer");
  outer.input("i", ElemType::Int64).input("c", ElemType::Bool).input("x", ElemType::Float, {2});
  test::set_graph(outer.node("Loop", {"two", "", "x"}, {"x_inner"}, "inner_loop"), "body", inner);
  outer.node("Add", {"x_inner", "k"}, {"x_next"});
  outer.node("Identity", {"c"}, {"c_out"});
  outer.output_untyped("c_out").output_untyped("x_next");
  GraphBuilder g;
  g.input("k", ElemType::Float, {2}).input("x0", ElemType::Float, {2});
  g.initializer("three", test::i64({}, {3})).initializer("two", test::i64({}, {2}));
  g.output("x_final", ElemType::Float, {2});
  test::set_graph(g.node("Loop", {"three", "", "x0"}, {"x_final"}, "outer_loop"), "body", outer);
  return test::save_model(test::make_model(g, 17), dir, "m.onnx");
}

NamedValues run(std::shared_ptr<ir::Model> model) {
  Session s{Model(std::move(model))};
  // x0 + 3 iterations * 3k = [1, 2] + 9 * [1, 10] = [10, 92]
  return s.run({{"k", f32({2}, {1, 10})}, {"x0", f32({2}, {1, 2})}});
}

TEST(OnnxLoopCaptures, CarriedCapturesRunTheSame) {
  std::string path = nested_loops(test::scratch_dir("loop_captures"));
  NamedValues by_name = run(onnx::read_model_file(path));
  EXPECT_EQ(floats_of(by_name[0].second.tensor()), (std::vector<float>{10, 92}));

  auto model = onnx::read_model_file(path);
  onnx::carry_loop_captures(*model);
  std::string bytes = onnx::write_model_bytes(*model);
  auto written = onnx::read_model_bytes(bytes, path, "");
  // The outer Loop now carries k (and two, for the inner Loop's trip count) and has no
  // implicit inputs; its body reads nothing by name.
  const ir::Node& loop = *written->graph->nodes.at(0);
  EXPECT_TRUE(loop.implicit_inputs.empty());
  EXPECT_EQ(loop.inputs.size(), 5u);
  EXPECT_EQ(loop.outputs.size(), 3u);
  const ir::Graph& body = *loop.attr("body")->g;
  EXPECT_TRUE(body.captures.empty());
  for (const auto& n : body.nodes)
    if (n->op_type == "Loop") {
      EXPECT_TRUE(n->implicit_inputs.empty());
      EXPECT_TRUE(n->attr("body")->g->captures.empty());
    }
  NamedValues carried = run(std::move(written));
  ASSERT_EQ(carried.size(), 1u);
  EXPECT_EQ(carried[0].first, "x_final");
  EXPECT_EQ(floats_of(carried[0].second.tensor()), (std::vector<float>{10, 92}));
}

}  // namespace
}  // namespace bough
