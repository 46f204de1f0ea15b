// The public functions of bough/model_tools.h: each returns a new Model and leaves its
// argument as it was; results worked out by hand.
#include "bough/model_tools.h"

#include <gtest/gtest.h>

#include "bough/session.h"
#include "ir/graph.h"
#include "ir/types.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {
namespace {

// x [2,3] -> Relu -> h -> Transpose(perm 1,0) -> y, h's type undeclared.
Model relu_transpose() {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2, 3}).output_untyped("y");
  g.node("Relu", {"x"}, {"h"}, "r");
  set_ints(g.node("Transpose", {"h"}, {"y"}, "t"), "perm", {1, 0});
  return Model::load(save_model(make_model(g), scratch_dir("model_tools"), "relu_t.onnx"));
}

// y = If(true) { x + one } else { x - one }: fold-if leaves one Add.
Model constant_if() {
  GraphBuilder then_g("then"), else_g("else"), g;
  then_g.output("t", ElemType::Float, {2});
  then_g.node("Add", {"x", "one"}, {"t"});
  else_g.output("e", ElemType::Float, {2});
  else_g.node("Sub", {"x", "one"}, {"e"});
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.initializer("cond", boolean({}, {true})).initializer("one", f32({2}, {1, 1}));
  auto& node = g.node("If", {"cond"}, {"y"}, "gate");
  set_graph(node, "then_branch", then_g);
  set_graph(node, "else_branch", else_g);
  return Model::load(save_model(make_model(g), scratch_dir("model_tools"), "const_if.onnx"));
}

const ir::Edge* edge_named(const Model& m, const std::string& name) {
  for (const auto& n : m.ir().graph->nodes)
    for (const ir::Edge* e : n->outputs)
      if (e->name == name) return e;
  return nullptr;
}

TEST(ModelTools, CheckListsEachProblemAtItsNode) {
  GraphBuilder g;
  g.input("a", ElemType::Float, {2}).input("b", ElemType::Int64, {2});
  g.output("c", ElemType::Float, {2});
  g.node("Add", {"a", "b"}, {"c"}, "add");
  Model bad = Model::load(save_model(make_model(g), scratch_dir("model_tools"), "bad.onnx"));
  std::vector<Diagnostic> found = check_model(bad);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_TRUE(found[0].error);
  EXPECT_EQ(found[0].kind, ErrorKind::InvalidModel);
  EXPECT_EQ(found[0].place, "main/Add \"add\"");
  EXPECT_TRUE(check_model(relu_transpose()).empty());
  EXPECT_THROW(with_inferred_types(bad), Error);
}

TEST(ModelTools, InferredTypesGoIntoACopy) {
  Model original = relu_transpose();
  Model typed = with_inferred_types(original);
  EXPECT_EQ(ir::to_string(edge_named(typed, "h")->type), "tensor(float)[2,3]");
  EXPECT_EQ(ir::to_string(edge_named(typed, "y")->type), "tensor(float)[3,2]");
  EXPECT_EQ(ir::to_string(edge_named(original, "h")->type), "?");
}

TEST(ModelTools, OptimizedCopyLeavesTheOriginal) {
  Model original = constant_if();
  Model folded = optimized(original);
  ASSERT_EQ(folded.ir().graph->nodes.size(), 1u);
  EXPECT_EQ(folded.ir().graph->nodes[0]->op_type, "Add");
  EXPECT_EQ(original.ir().graph->nodes[0]->op_type, "If");
  EXPECT_EQ(optimized(original, {Optimization::none}).ir().graph->nodes[0]->op_type, "If");
  EXPECT_EQ(optimized(original, {Optimization::none, {"fold-if"}}).ir().graph->nodes[0]->op_type,
            "Add");
  EXPECT_THROW(optimized(original, {Optimization::basic, {"no-such-pass"}}), Error);
  // The folded model computes x + 1.
  Session s(folded);
  NamedValues out = s.run({{"x", f32({2}, {2, 5})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3, 6}));
}

int64_t onnx_opset(const Model& m) {
  for (const auto& [domain, version] : m.ir().opset_imports)
    if (domain.empty()) return version;
  return 0;
}

TEST(ModelTools, OpsetChangesOnlyInTheCopy) {
  Model original = relu_transpose();  // written at opset 17
  EXPECT_EQ(onnx_opset(with_onnx_opset(original, 14)), 14);
  EXPECT_EQ(onnx_opset(original), 17);
}

}  // namespace
}  // namespace bough::test
