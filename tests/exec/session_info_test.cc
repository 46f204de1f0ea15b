// Session::inputs() and outputs(): names, types and shapes as declared or inferred, the
// public view of what a model expects (like ONNX Runtime's get_inputs()).
#include <gtest/gtest.h>

#include "bough/model.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {
namespace {

TEST(SessionInfo, InputsAndOutputsWithInferredShapes) {
  // y = Relu(x + b): x [N, 3] (a symbol), b [3]; y undeclared, so [N, 3] is inferred.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {-1, 3}).input("b", ElemType::Float, {3});
  auto* dim = g.mutable_proto()
                  .mutable_input(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->mutable_dim(0);
  dim->Clear();
  dim->set_dim_param("N");
  g.node("Add", {"x", "b"}, {"s"});
  g.node("Relu", {"s"}, {"y"});
  g.output_untyped("y");
  std::string path = save_model(make_model(g), scratch_dir("session_info"), "m.onnx");
  Session session(Model::load(path));

  ASSERT_EQ(session.inputs().size(), 2u);
  const ValueInfo& x = session.inputs()[0];
  EXPECT_EQ(x.name, "x");
  EXPECT_EQ(x.type, "tensor(float)[N,3]");
  EXPECT_EQ(x.elem, ElemType::Float);
  ASSERT_TRUE(x.rank_known);
  ASSERT_EQ(x.shape.size(), 2u);
  EXPECT_FALSE(x.shape[0].known());
  EXPECT_EQ(x.shape[0].symbol, "N");
  EXPECT_EQ(x.shape[1].size, 3);

  ASSERT_EQ(session.outputs().size(), 1u);
  const ValueInfo& y = session.outputs()[0];
  EXPECT_EQ(y.name, "y");
  EXPECT_EQ(y.type, "tensor(float)[N,3]");
  ASSERT_EQ(y.shape.size(), 2u);
  EXPECT_EQ(y.shape[0].symbol, "N");
  EXPECT_EQ(y.shape[1].size, 3);
}

TEST(SessionInfo, UnknownOutputTypeSaysSo) {
  // An undeclared input of unknown rank: the output keeps its element type, no shape.
  GraphBuilder g("main");
  g.input("x", ElemType::Int64, {}, false);
  g.node("Neg", {"x"}, {"y"});
  g.output_untyped("y");
  std::string path = save_model(make_model(g), scratch_dir("session_info"), "u.onnx");
  Session session(Model::load(path));
  const ValueInfo& y = session.outputs()[0];
  EXPECT_EQ(y.elem, ElemType::Int64);
  EXPECT_FALSE(y.rank_known);
  EXPECT_TRUE(y.shape.empty());
}

}  // namespace
}  // namespace bough::test
