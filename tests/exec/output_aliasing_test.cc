// What Session::run returns belongs to the caller: writing into an output must change
// neither the model's constants (what the next run returns) nor the caller's inputs nor
// another output. Each test writes into every element of an output that the engine could
// have handed out by reference, then checks the next run and the inputs.
#include <gtest/gtest.h>

#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

Session session_for(const GraphBuilder& g) {
  return Session(
      Model::load(test::save_model(test::make_model(g), test::scratch_dir("alias"), "m.onnx")));
}

// Overwrites every element of a float tensor with -99.
void scribble(Tensor t) {
  for (int64_t i = 0; i < t.numel(); ++i) t.data<float>()[i] = -99;
}

TEST(OutputAliasing, InitializerReturnedDirectly) {
  GraphBuilder g;
  g.initializer("w", f32({2}, {1, 2}));
  g.output("w", ElemType::Float, {2});
  Session s = session_for(g);
  scribble(s.run({})[0].second.tensor());
  EXPECT_EQ(floats_of(s.run({})[0].second.tensor()), (std::vector<float>{1, 2}));
}

TEST(OutputAliasing, ConstantNodeAndIdentityOfAConstant) {
  GraphBuilder g;
  test::set_tensor(g.node("Constant", {}, {"k"}), "value", f32({2}, {3, 4}));
  g.node("Identity", {"k"}, {"k_again"});
  g.output("k", ElemType::Float, {2}).output("k_again", ElemType::Float, {2});
  Session s = session_for(g);
  auto out = s.run({});
  scribble(out[0].second.tensor());
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 4}));  // not each other
  scribble(out[1].second.tensor());
  out = s.run({});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{3, 4}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{3, 4}));
}

TEST(OutputAliasing, InputReturnedDirectlyThroughIdentityAndReshape) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.initializer("shape", test::i64({2}, {1, 2}));
  g.node("Identity", {"x"}, {"same"});
  g.node("Reshape", {"x", "shape"}, {"row"});
  g.output("x", ElemType::Float, {2})
      .output("same", ElemType::Float, {2})
      .output("row", ElemType::Float, {1, 2});
  Session s = session_for(g);
  Tensor x = f32({2}, {5, 6});
  auto out = s.run({{"x", x}});
  for (auto& [name, v] : out) scribble(v.tensor());
  EXPECT_EQ(floats_of(x), (std::vector<float>{5, 6}));
}

TEST(OutputAliasing, OneValueListedAsTwoOutputs) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.node("Neg", {"x"}, {"n"});
  g.output("n", ElemType::Float, {2}).output("n", ElemType::Float, {2});
  Session s = session_for(g);
  auto out = s.run({{"x", f32({2}, {5, 6})}});
  scribble(out[0].second.tensor());
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{-5, -6}));
}

TEST(OutputAliasing, InputDefaultLeftOut) {
  // An input whose initializer is its default; the run leaves it out and returns it.
  GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  g.initializer("x", f32({2}, {7, 8}));
  g.node("Identity", {"x"}, {"y"});
  g.output("y", ElemType::Float, {2});
  Session s = session_for(g);
  scribble(s.run({})[0].second.tensor());
  EXPECT_EQ(floats_of(s.run({})[0].second.tensor()), (std::vector<float>{7, 8}));
}

TEST(OutputAliasing, BranchAndLoopReturnConstants) {
  // If(c) returns the branch's own initializer or the main graph's; a Loop of zero
  // iterations returns its initial carried value, an initializer.
  GraphBuilder t("t"), e("e");
  t.initializer("inner", f32({2}, {1, 1}));
  t.output_untyped("inner");
  e.output_untyped("outer");
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cin", ElemType::Bool).input("v", ElemType::Float, {2});
  body.node("Neg", {"v"}, {"v_next"});
  body.output_untyped("cin").output_untyped("v_next");
  GraphBuilder g;
  g.input("c", ElemType::Bool);
  g.initializer("outer", f32({2}, {2, 2})).initializer("zero", Tensor::scalar_i64(0));
  auto& node = g.node("If", {"c"}, {"picked"});
  test::set_graph(node, "then_branch", t);
  test::set_graph(node, "else_branch", e);
  test::set_graph(g.node("Loop", {"zero", "", "outer"}, {"looped"}), "body", body);
  g.output("picked", ElemType::Float, {2}).output("looped", ElemType::Float, {2});
  Session s = session_for(g);
  for (bool c : {true, false}) {
    for (auto& [name, v] : s.run({{"c", test::boolean({}, {c})}})) scribble(v.tensor());
    auto out = s.run({{"c", test::boolean({}, {c})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()),
              (c ? std::vector<float>{1, 1} : std::vector<float>{2, 2}));
    EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{2, 2}));
  }
}

TEST(OutputAliasing, SequenceOfAConstant) {
  GraphBuilder g;
  g.initializer("w", f32({2}, {1, 2}));
  g.node("SequenceConstruct", {"w", "w"}, {"seq"});
  g.output_untyped("seq");
  Session s = session_for(g);
  scribble(s.run({})[0].second.seq().items[0].tensor());
  auto out = s.run({});
  EXPECT_EQ(floats_of(out[0].second.seq().items[0].tensor()), (std::vector<float>{1, 2}));
  EXPECT_EQ(floats_of(out[0].second.seq().items[1].tensor()), (std::vector<float>{1, 2}));
}

}  // namespace
}  // namespace bough
