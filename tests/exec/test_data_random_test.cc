// Which models the test-data runner checks by distribution (a random operator at any
// depth), the seeds it fixes for them, and the distribution rule on hand-made values.
#include "exec/test_data_random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "formats/onnx/reader.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::GraphBuilder;

std::unique_ptr<ir::Model> load(const GraphBuilder& g, const std::string& dir) {
  return onnx::read_model_file(
      test::save_model(test::make_model(g, 22, 10), test::scratch_dir(dir), "m.onnx"));
}

// An If whose then-branch holds a Loop whose body draws: random two levels down.
GraphBuilder nested(const std::string& op) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64, {});
  body.input("c", ElemType::Bool, {});
  body.output("c_out", ElemType::Bool, {});
  body.output("r", ElemType::Float, {2});
  body.node("Identity", {"c"}, {"c_out"});
  test::set_ints(body.node(op, {}, {"r"}), "shape", {2});
  GraphBuilder then_branch("then");
  then_branch.output("t", ElemType::Float, {1, 2}, false);
  then_branch.node("Loop", {"n", "cond"}, {"t"}, "loop");
  test::set_graph(then_branch.graph_node_last(), "body", body);
  GraphBuilder else_branch("else");
  else_branch.output("e", ElemType::Float, {1, 2}, false);
  else_branch.node("Identity", {"zeros"}, {"e"});
  GraphBuilder g;
  g.input("cond", ElemType::Bool, {});
  g.input("n", ElemType::Int64, {});
  g.input("zeros", ElemType::Float, {1, 2});
  g.output("y", ElemType::Float, {1, 2}, false);
  onnxpb::NodeProto& n = g.node("If", {"cond"}, {"y"}, "if");
  test::set_graph(n, "then_branch", then_branch);
  test::set_graph(n, "else_branch", else_branch);
  return g;
}

TEST(TestDataRandom, ARandomOperatorAtAnyDepthMakesTheModelRandom) {
  EXPECT_TRUE(holds_random_op(*load(nested("RandomNormal"), "random_nested")));
  GraphBuilder plain;
  plain.input("x", ElemType::Float, {2});
  plain.output("y", ElemType::Float, {2});
  plain.node("Relu", {"x"}, {"y"});
  EXPECT_FALSE(holds_random_op(*load(plain, "random_plain")));
}

TEST(TestDataRandom, FixedSeedsGoOnlyWhereNoneIsGiven) {
  GraphBuilder g;
  g.output("a", ElemType::Float, {2});
  g.output("b", ElemType::Float, {2});
  test::set_ints(g.node("RandomUniform", {}, {"a"}, "unseeded"), "shape", {2});
  onnxpb::NodeProto& b = g.node("RandomUniform", {}, {"b"}, "seeded");
  test::set_ints(b, "shape", {2});
  test::set_float(b, "seed", 5);
  std::unique_ptr<ir::Model> model = load(g, "random_seeds");
  std::shared_ptr<ir::Model> fixed = with_fixed_seeds(*model, 100);
  ASSERT_NE(fixed->graph->nodes[0]->attr("seed"), nullptr);
  EXPECT_EQ(fixed->graph->nodes[0]->attr("seed")->f, 100.0f);
  EXPECT_EQ(fixed->graph->nodes[1]->attr("seed")->f, 5.0f);
  // The model given is left as it was.
  EXPECT_EQ(model->graph->nodes[0]->attr("seed"), nullptr);
}

TEST(TestDataRandom, DistributionRuleOnHandMadeValues) {
  const Value ones_zeros = f32({4}, {1, 0, 0, 1});
  // Same support and mean 0.5: passes; 1, 1, 1, 0 (mean 0.75) is within 4 * sqrt(0.5 / 4)
  // = 1.41 of it too.
  EXPECT_EQ(compare_by_distribution(ones_zeros, f32({4}, {0, 1, 1, 0})), "");
  EXPECT_EQ(compare_by_distribution(ones_zeros, f32({4}, {1, 1, 1, 0})), "");
  EXPECT_EQ(compare_by_distribution(ones_zeros, f32({4}, {0, 2, 1, 0})),
            "element 1 is 2, outside the support {0, 1}");
  EXPECT_EQ(compare_by_distribution(ones_zeros, f32({2, 2}, {0, 1, 1, 0})),
            "shape [2,2], expected [4]");
  EXPECT_EQ(compare_by_distribution(ones_zeros, test::i64({4}, {0, 1, 1, 0})),
            "type int64, expected float");
  // Continuous values: expected 0.1, 0.2, 0.3, 0.4 (mean 0.25) against 10.1 .. 10.4 (mean
  // 10.25). Each sample's squared deviations sum to 0.05: pooled variance 0.1 / 6 = 0.01667,
  // bound 4 * sqrt(2 * 0.01667 / 4) = 0.365148, and the means differ by 10: fails.
  const Value low = f32({4}, {0.1f, 0.2f, 0.3f, 0.4f});
  EXPECT_EQ(compare_by_distribution(low, f32({4}, {10.1f, 10.2f, 10.3f, 10.4f})),
            "mean 10.25, expected 0.25 within 0.365148");
  EXPECT_EQ(compare_by_distribution(low, f32({4}, {0.4f, 0.1f, 0.2f, 0.35f})), "");
  EXPECT_EQ(compare_by_distribution(low, f32({4}, {0.4f, NAN, 0.2f, 0.35f})),
            "element 1 is not finite");
}

}  // namespace
}  // namespace bough
