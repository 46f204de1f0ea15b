// Sequence operators on cases the ONNX backend tests do not cover.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

NamedValues run_model(const GraphBuilder& g, const NamedValues& inputs) {
  std::string path = test::save_model(test::make_model(g, 17), test::scratch_dir("seq"), "m.onnx");
  Session session(Model::load(path));
  return session.run(inputs);
}

TEST(SequenceOps, SplitEraseConcatWithNewAxis) {
  // X [3,2] split into 3 rows of shape [2] (no split input, keepdims 0) -> erase position
  // -2 -> stack the remaining rows 0 and 2 along a new axis 1: [[1,5],[2,6]].
  GraphBuilder g;
  g.input("X", ElemType::Float, {3, 2})
      .output("Y", ElemType::Float, {2, 2})
      .output("n", ElemType::Int64);
  g.initializer("pos", Tensor::scalar_i64(-2));
  test::set_int(g.node("SplitToSequence", {"X"}, {"rows"}), "keepdims", 0);
  g.node("SequenceErase", {"rows", "pos"}, {"kept"});
  g.node("SequenceLength", {"kept"}, {"n"});
  auto& concat = g.node("ConcatFromSequence", {"kept"}, {"Y"});
  test::set_int(concat, "axis", 1);
  test::set_int(concat, "new_axis", 1);
  auto out = run_model(g, {{"X", f32({3, 2}, {1, 2, 3, 4, 5, 6})}});
  EXPECT_EQ(out[0].second.tensor().shape(), (Dims{2, 2}));
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 5, 2, 6}));
  EXPECT_EQ(out[1].second.tensor().data<int64_t>()[0], 2);
}

TEST(SequenceOps, GivenSplitKeepsTheAxisWhateverKeepdimsSays) {
  // The spec: keepdims is ignored when `split` is given, so each piece is [1,2].
  GraphBuilder g;
  g.input("X", ElemType::Float, {3, 2}).output("n", ElemType::Int64);
  g.initializer("one", Tensor::scalar_i64(1)).initializer("first", Tensor::scalar_i64(0));
  test::set_int(g.node("SplitToSequence", {"X", "one"}, {"rows"}), "keepdims", 0);
  g.node("SequenceAt", {"rows", "first"}, {"row"});
  g.node("Shape", {"row"}, {"n"});
  auto out = run_model(g, {{"X", f32({3, 2}, {1, 2, 3, 4, 5, 6})}});
  const Tensor& shape = out[0].second.tensor();
  ASSERT_EQ(shape.numel(), 2);
  EXPECT_EQ(shape.data<int64_t>()[0], 1);
  EXPECT_EQ(shape.data<int64_t>()[1], 2);
}

TEST(SequenceOps, OutOfRangePositionIsAnErrorNamingTheNode) {
  GraphBuilder g;
  g.input("X", ElemType::Float, {2}).output("Y", ElemType::Float, {2});
  g.initializer("pos", Tensor::scalar_i64(3));
  g.node("SequenceConstruct", {"X", "X"}, {"s"});
  g.node("SequenceAt", {"s", "pos"}, {"Y"}, "pick");
  try {
    run_model(g, {{"X", f32({2}, {1, 2})}});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("SequenceAt \"pick\""), std::string::npos) << e.what();
  }
}

TEST(SequenceOps, LoopCarriesASequence) {
  // Loop 3 times appending x to a carried sequence: length 3.
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("c", ElemType::Bool);
  body.g_input_sequence("s_in");
  body.node("SequenceInsert", {"s_in", "x"}, {"s_out"});
  body.node("Identity", {"c"}, {"c_out"});
  body.output_untyped("c_out").output_untyped("s_out");
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).input("M", ElemType::Int64).output("n", ElemType::Int64);
  test::set_int(g.node("SequenceEmpty", {}, {"empty"}), "dtype", 1);
  test::set_graph(g.node("Loop", {"M", "", "empty"}, {"seq"}), "body", body);
  g.node("SequenceLength", {"seq"}, {"n"});
  auto out = run_model(g, {{"x", f32({1}, {4})}, {"M", Tensor::scalar_i64(3)}});
  EXPECT_EQ(out[0].second.tensor().data<int64_t>()[0], 3);
}

}  // namespace
}  // namespace bough
