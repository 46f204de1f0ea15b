// Inference of the data-movement, sequence, optional and string operators (group B): output
// types worked out by hand from symbolic dims, attributes and values known before running.
// The inputs that cannot be valid are in group_b_refusals_test.cc.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "infer/infer_util.h"
#include "model_builder.h"

namespace bough::test {
namespace {

// The graph with `outputs` as its untyped outputs, inferred.
Inferred infer_graph(GraphBuilder& g, const std::vector<std::string>& outputs, int64_t opset = 17) {
  for (const std::string& o : outputs) g.output_untyped(o);
  return infer_model(g, opset);
}

// --- symbolic dims carried through --------------------------------------------------------

TEST(GroupBInfer, TransposeMovesSymbols) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "3", "4"});
  set_ints(g.node("Transpose", {"x"}, {"y"}, "t"), "perm", {2, 0, 1});
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.type(0), "tensor(float)[4,N,3]") << r.errors();
}

TEST(GroupBInfer, ConcatAddsTheAxisAndKeepsTheRest) {
  GraphBuilder g;
  symbolic_input(g, "a", ElemType::Float, {"N", "2"});
  symbolic_input(g, "b", ElemType::Float, {"N", "3"});
  set_int(g.node("Concat", {"a", "b"}, {"y"}, "c"), "axis", 1);
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,5]") << r.errors();
}

TEST(GroupBInfer, FlattenAndCastKeepSymbols) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "3", "4"});
  set_int(g.node("Flatten", {"x"}, {"f"}, "f"), "axis", 1);
  set_int(g.node("Cast", {"x"}, {"c"}, "c"), "to", static_cast<int64_t>(ElemType::Int64));
  auto r = infer_graph(g, {"f", "c"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,12]");
  EXPECT_EQ(r.type(1), "tensor(int64)[N,3,4]");
}

TEST(GroupBInfer, GatherPutsTheIndicesShapeAtTheAxis) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"5", "N"});
  symbolic_input(g, "i", ElemType::Int64, {"2", "3"});
  set_int(g.node("Gather", {"x", "i"}, {"y"}, "g"), "axis", 1);
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.type(0), "tensor(float)[5,2,3]");
}

TEST(GroupBInfer, SequencesCoverTheirElements) {
  GraphBuilder g;
  symbolic_input(g, "a", ElemType::Float, {"2", "3"});
  symbolic_input(g, "b", ElemType::Float, {"2", "4"});
  g.initializer("p", i64({}, {1}));
  g.node("SequenceConstruct", {"a", "b"}, {"s"}, "sc");
  g.node("SequenceAt", {"s", "p"}, {"t"}, "at");
  g.node("SequenceLength", {"s"}, {"n"}, "len");
  auto r = infer_graph(g, {"s", "t", "n"});
  EXPECT_EQ(r.type(0), "seq(tensor(float)[2,?])");
  EXPECT_EQ(r.type(1), "tensor(float)[2,?]");
  EXPECT_EQ(r.type(2), "tensor(int64)[]");
}

// --- attribute-driven shapes --------------------------------------------------------------

TEST(GroupBInfer, SplitByNumOutputsLeavesTheLastChunkSmaller) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"7", "N"});
  set_int(g.node("Split", {"x"}, {"a", "b", "c"}, "s"), "num_outputs", 3);
  auto r = infer_graph(g, {"a", "b", "c"}, 18);
  EXPECT_EQ(r.type(0), "tensor(float)[3,N]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[3,N]");
  EXPECT_EQ(r.type(2), "tensor(float)[1,N]");
}

TEST(GroupBInfer, DepthToSpaceAndSpaceToDepth) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "8", "3", "5"});
  set_int(g.node("DepthToSpace", {"x"}, {"d"}, "d2s"), "blocksize", 2);
  symbolic_input(g, "z", ElemType::Float, {"1", "3", "4", "6"});
  set_int(g.node("SpaceToDepth", {"z"}, {"s"}, "s2d"), "blocksize", 2);
  auto r = infer_graph(g, {"d", "s"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,2,6,10]");
  EXPECT_EQ(r.type(1), "tensor(float)[1,12,2,3]");
}

TEST(GroupBInfer, ConstantGivesItsValue) {
  GraphBuilder g;
  set_ints(g.node("Constant", {}, {"c"}, "k"), "value_ints", {4, 5, 6});
  g.node("ConstantOfShape", {"c"}, {"z"}, "cos");
  auto r = infer_graph(g, {"c", "z"});
  EXPECT_EQ(r.type(0), "tensor(int64)[3]");
  EXPECT_EQ(r.type(1), "tensor(float)[4,5,6]");
}

// --- shapes fixed by values known before running ------------------------------------------

TEST(GroupBInfer, ReshapeCopiesAndInfersDims) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "3", "4"});
  g.initializer("shape", i64({2}, {0, -1}));
  g.node("Reshape", {"x", "shape"}, {"y"}, "r");
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,12]") << r.errors();
}

TEST(GroupBInfer, ReshapeToAShapeComputedFromAnother) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"2", "3", "4"});
  symbolic_input(g, "flat", ElemType::Float, {"24"});
  g.node("Shape", {"x"}, {"s"}, "shape");
  g.node("Reshape", {"flat", "s"}, {"y"}, "r");
  auto r = infer_graph(g, {"s", "y"});
  EXPECT_EQ(r.type(0), "tensor(int64)[3]");
  EXPECT_EQ(r.type(1), "tensor(float)[2,3,4]") << r.errors();
}

TEST(GroupBInfer, SliceExpandTileAndPad) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "10"});
  g.initializer("starts", i64({1}, {2}));
  g.initializer("ends", i64({1}, {-1}));
  g.initializer("axes", i64({1}, {1}));
  g.node("Slice", {"x", "starts", "ends", "axes"}, {"sl"}, "slice");
  symbolic_input(g, "e", ElemType::Float, {"3", "1"});
  g.initializer("eshape", i64({3}, {2, 1, 4}));
  g.node("Expand", {"e", "eshape"}, {"ex"}, "expand");
  g.initializer("reps", i64({2}, {2, 3}));
  g.node("Tile", {"e", "reps"}, {"ti"}, "tile");
  symbolic_input(g, "p", ElemType::Float, {"2", "M"});
  g.initializer("pads", i64({4}, {1, 0, 1, 2}));
  g.node("Pad", {"p", "pads"}, {"pa"}, "pad");
  auto r = infer_graph(g, {"sl", "ex", "ti", "pa"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,7]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[2,3,4]");
  EXPECT_EQ(r.type(2), "tensor(float)[6,3]");
  EXPECT_EQ(r.type(3), "tensor(float)[4,?]");
}

TEST(GroupBInfer, TopKRangeAndUnsqueeze) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"N", "5"});
  g.initializer("k", i64({1}, {2}));
  g.node("TopK", {"x", "k"}, {"v", "i"}, "topk");
  g.initializer("start", f32({}, {0}));
  g.initializer("limit", f32({}, {10}));
  g.initializer("delta", f32({}, {3}));
  g.node("Range", {"start", "limit", "delta"}, {"rg"}, "range");
  g.initializer("uaxes", i64({2}, {0, -1}));
  g.node("Unsqueeze", {"x", "uaxes"}, {"u"}, "unsq");
  auto r = infer_graph(g, {"v", "i", "rg", "u"});
  EXPECT_EQ(r.type(0), "tensor(float)[N,2]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(int64)[N,2]");
  EXPECT_EQ(r.type(2), "tensor(float)[4]");
  EXPECT_EQ(r.type(3), "tensor(float)[1,N,5,1]");
}

TEST(GroupBInfer, ResizeByScalesAndBySizes) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"1", "1", "2", "3"});
  g.initializer("scales", f32({4}, {1, 1, 2, 2}));
  g.node("Resize", {"x", "", "scales"}, {"a"}, "by_scales");
  g.initializer("sizes", i64({4}, {1, 1, 5, 7}));
  g.node("Resize", {"x", "", "", "sizes"}, {"b"}, "by_sizes");
  auto r = infer_graph(g, {"a", "b"}, 13);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,4,6]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[1,1,5,7]");
}

// Scales that would give a dim past 2^40 (or NaN) leave it unknown instead of converting
// 1e30 * 2 or NaN to int64 (undefined); the run then refuses the scales with a clear error.
TEST(GroupBInfer, ResizeDimsOutOfRangeStayUnknown) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"1", "1", "2", "3"});
  g.initializer("huge", f32({4}, {1, 1, 1e30f, 2}));
  g.node("Resize", {"x", "", "huge"}, {"a"}, "huge_scale");
  g.initializer("nan", f32({4}, {1, 1, std::nanf(""), 2}));
  g.node("Resize", {"x", "", "nan"}, {"b"}, "nan_scale");
  // not_smaller takes the largest ratio, (2^63 - 1) / 3 ~ 3.1e18, for every axis: each dim
  // times it is past 2^40.
  g.initializer("sizes", i64({4}, {1, 1, 2, std::numeric_limits<int64_t>::max()}));
  auto& n = g.node("Resize", {"x", "", "", "sizes"}, {"c"}, "huge_sizes");
  set_string(n, "keep_aspect_ratio_policy", "not_smaller");
  auto r = infer_graph(g, {"a", "b", "c"}, 18);
  EXPECT_EQ(r.type(0), "tensor(float)[1,1,?,6]") << r.errors();
  EXPECT_EQ(r.type(1), "tensor(float)[1,1,?,6]");
  EXPECT_EQ(r.type(2), "tensor(float)[?,?,?,?]");
}

TEST(GroupBInfer, UnknownCountsStayUnknown) {
  GraphBuilder g;
  symbolic_input(g, "x", ElemType::Float, {"2", "3"});
  g.node("NonZero", {"x"}, {"nz"}, "nz");
  g.node("Unique", {"x"}, {"u", "idx", "inv", "cnt"}, "uniq");
  auto r = infer_graph(g, {"nz", "u", "inv"});
  EXPECT_EQ(r.type(0), "tensor(int64)[2,?]");
  EXPECT_EQ(r.type(1), "tensor(float)[?]");
  EXPECT_EQ(r.type(2), "tensor(int64)[6]");
}

TEST(GroupBInfer, SequenceMapBodyOfTheWrongArityIsRefused) {
  GraphBuilder body("body");
  body.input("e", ElemType::Float, {2});
  body.node("Identity", {"e"}, {"o1"});
  body.node("Identity", {"e"}, {"o2"});
  body.output("o1", ElemType::Float, {2}).output("o2", ElemType::Float, {2});
  GraphBuilder g;
  g.g_input_sequence("s");
  set_graph(g.node("SequenceMap", {"s"}, {"y"}, "bad"), "body", body);
  auto r = infer_graph(g, {"y"});
  EXPECT_TRUE(r.refused("\"bad\"", "its body takes 1 and yields 2")) << r.errors();
}

TEST(GroupBInfer, SequenceMapGathersTheBodyOutputs) {
  GraphBuilder body("body");
  body.input("e", ElemType::Float, {}, false);
  body.node("Shape", {"e"}, {"o"});
  body.output_untyped("o");
  GraphBuilder g;
  g.g_input_sequence("s");
  set_graph(g.node("SequenceMap", {"s"}, {"y"}, "map"), "body", body);
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.type(0), "seq(tensor(int64)[?])") << r.errors();
}

}  // namespace
}  // namespace bough::test
