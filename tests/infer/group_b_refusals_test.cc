// Inference of the data-movement, sequence, optional and string operators (group B): the
// inputs that cannot be valid, each refused by infer::validate with a message at its node.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "infer/infer_util.h"
#include "model_builder.h"

namespace bough::test {
namespace {

// --- inputs that cannot be valid ----------------------------------------------------------

struct BadCase {
  const char* what;
  std::function<void(GraphBuilder&)> build;  // adds inputs and a node named "bad" with output y
  const char* message;
  int64_t opset = 17;
};

void x_input(GraphBuilder& g, std::vector<std::string> dims = {"2", "3"}) {
  symbolic_input(g, "x", ElemType::Float, dims);
}

const std::vector<BadCase>& bad_cases() {
  static const std::vector<BadCase> cases = {
      {"Reshape with two -1",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {-1, -1}));
         g.node("Reshape", {"x", "s"}, {"y"}, "bad");
       },
       "more than one -1"},
      {"Reshape with a negative dim",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {-2, 3}));
         g.node("Reshape", {"x", "s"}, {"y"}, "bad");
       },
       "negative dim"},
      {"Reshape copying a dim beyond the rank",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({3}, {2, 3, 0}));
         g.node("Reshape", {"x", "s"}, {"y"}, "bad");
       },
       "copies a dim"},
      {"Reshape whose -1 does not divide",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {4, -1}));
         g.node("Reshape", {"x", "s"}, {"y"}, "bad");
       },
       "cannot reshape 6 elements"},
      {"Reshape to another count",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {4, 2}));
         g.node("Reshape", {"x", "s"}, {"y"}, "bad");
       },
       "cannot reshape 6 elements into 8"},
      {"Concat of scalars",
       [](GraphBuilder& g) {
         x_input(g, {});
         set_int(g.node("Concat", {"x", "x"}, {"y"}, "bad"), "axis", 0);
       },
       "Concat of scalars"},
      {"Concat of different ranks",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "z", ElemType::Float, {"2"});
         set_int(g.node("Concat", {"x", "z"}, {"y"}, "bad"), "axis", 0);
       },
       "inputs of ranks 2 and 1"},
      {"Concat of differing dims",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "z", ElemType::Float, {"2", "4"});
         set_int(g.node("Concat", {"x", "z"}, {"y"}, "bad"), "axis", 0);
       },
       "dims 3 and 4 differ"},
      {"Concat axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("Concat", {"x", "x"}, {"y"}, "bad"), "axis", 2);
       },
       "axis 2 is out of range"},
      {"Flatten axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("Flatten", {"x"}, {"y"}, "bad"), "axis", 3);
       },
       "axis 3 is out of range"},
      {"Squeeze of a dim other than 1",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("a", i64({1}, {1}));
         g.node("Squeeze", {"x", "a"}, {"y"}, "bad");
       },
       "cannot squeeze axis 1 of size 3"},
      {"Unsqueeze repeating an axis",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("a", i64({2}, {0, 0}));
         g.node("Unsqueeze", {"x", "a"}, {"y"}, "bad");
       },
       "repeat an axis"},
      {"Transpose perm of the wrong length",
       [](GraphBuilder& g) {
         x_input(g);
         set_ints(g.node("Transpose", {"x"}, {"y"}, "bad"), "perm", {0, 1, 2});
       },
       "perm has 3 entries for an input of rank 2"},
      {"Transpose perm that repeats",
       [](GraphBuilder& g) {
         x_input(g);
         set_ints(g.node("Transpose", {"x"}, {"y"}, "bad"), "perm", {1, 1});
       },
       "not a permutation"},
      {"Expand to a shape that does not broadcast",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {2, 4}));
         g.node("Expand", {"x", "s"}, {"y"}, "bad");
       },
       "cannot be broadcast"},
      {"Where of shapes that do not broadcast",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "c", ElemType::Bool, {"4"});
         g.node("Where", {"c", "x", "x"}, {"y"}, "bad");
       },
       "cannot be broadcast"},
      {"Gather of a scalar",
       [](GraphBuilder& g) {
         x_input(g, {});
         symbolic_input(g, "i", ElemType::Int64, {"1"});
         g.node("Gather", {"x", "i"}, {"y"}, "bad");
       },
       "rank >= 1"},
      {"Gather axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "i", ElemType::Int64, {"1"});
         set_int(g.node("Gather", {"x", "i"}, {"y"}, "bad"), "axis", -3);
       },
       "axis -3 is out of range"},
      {"GatherElements of another rank",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "i", ElemType::Int64, {"1"});
         g.node("GatherElements", {"x", "i"}, {"y"}, "bad");
       },
       "indices of rank 1 for data of rank 2"},
      {"GatherND tuples longer than the rank",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "i", ElemType::Int64, {"1", "3"});
         g.node("GatherND", {"x", "i"}, {"y"}, "bad");
       },
       "index tuples of length 3"},
      {"Slice of mismatched starts and ends",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({1}, {0}));
         g.initializer("e", i64({2}, {1, 1}));
         g.node("Slice", {"x", "s", "e"}, {"y"}, "bad");
       },
       "differ in length"},
      {"Slice with a step of 0",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({1}, {0}));
         g.initializer("e", i64({1}, {1}));
         g.initializer("a", i64({1}, {0}));
         g.initializer("st", i64({1}, {0}));
         g.node("Slice", {"x", "s", "e", "a", "st"}, {"y"}, "bad");
       },
       "a step is 0"},
      {"Split sizes for another count of outputs",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({3}, {1, 1, 1}));
         set_int(g.node("Split", {"x", "s"}, {"y", "z"}, "bad"), "axis", 1);
       },
       "split has 3 entries for 2 outputs"},
      {"Split sizes that do not sum to the axis",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {1, 1}));
         set_int(g.node("Split", {"x", "s"}, {"y", "z"}, "bad"), "axis", 1);
       },
       "split sums to 2"},
      {"Split of a negative size",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {4, -1}));
         set_int(g.node("Split", {"x", "s"}, {"y", "z"}, "bad"), "axis", 1);
       },
       "negative size"},
      {"Split that is not even",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("Split", {"x"}, {"y", "z"}, "bad"), "axis", 1);
       },
       "cannot be split evenly"},
      {"Split num_outputs against the outputs",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("Split", {"x"}, {"y", "z"}, "bad"), "num_outputs", 3);
       },
       "num_outputs is 3", 18},
      {"Pad of the wrong length",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("p", i64({2}, {1, 1}));
         g.node("Pad", {"x", "p"}, {"y"}, "bad");
       },
       "pads has 2 entries for 2 axes"},
      {"Pad that shrinks below 0",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("p", i64({4}, {-2, 0, -1, 0}));
         g.node("Pad", {"x", "p"}, {"y"}, "bad");
       },
       "below 0"},
      {"Tile repeats of the wrong length",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("r", i64({1}, {2}));
         g.node("Tile", {"x", "r"}, {"y"}, "bad");
       },
       "repeats has 1 entries for an input of rank 2"},
      {"Tile by a negative count",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("r", i64({2}, {2, -1}));
         g.node("Tile", {"x", "r"}, {"y"}, "bad");
       },
       "negative count"},
      {"TopK with two values of K",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("k", i64({2}, {1, 2}));
         g.node("TopK", {"x", "k"}, {"y", "i"}, "bad");
       },
       "K must hold one value"},
      {"TopK with a negative K",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("k", i64({1}, {-1}));
         g.node("TopK", {"x", "k"}, {"y", "i"}, "bad");
       },
       "K is negative"},
      {"TopK beyond the axis",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("k", i64({1}, {4}));
         g.node("TopK", {"x", "k"}, {"y", "i"}, "bad");
       },
       "K 4 exceeds the axis of 3"},
      {"Range with a delta of 0",
       [](GraphBuilder& g) {
         symbolic_input(g, "s", ElemType::Int64, {});
         g.initializer("l", i64({}, {5}));
         g.initializer("d", i64({}, {0}));
         g.node("Range", {"s", "l", "d"}, {"y"}, "bad");
       },
       "delta is 0"},
      {"Range with a float delta of 0",
       [](GraphBuilder& g) {
         symbolic_input(g, "s", ElemType::Float, {});
         g.initializer("l", f32({}, {5}));
         g.initializer("d", f32({}, {0}));
         g.node("Range", {"s", "l", "d"}, {"y"}, "bad");
       },
       "delta is 0"},
      {"OneHot of two depths",
       [](GraphBuilder& g) {
         symbolic_input(g, "i", ElemType::Int64, {"3"});
         g.initializer("d", i64({2}, {2, 3}));
         g.initializer("v", f32({2}, {0, 1}));
         g.node("OneHot", {"i", "d", "v"}, {"y"}, "bad");
       },
       "depth must hold one value"},
      {"OneHot of a negative depth",
       [](GraphBuilder& g) {
         symbolic_input(g, "i", ElemType::Int64, {"3"});
         g.initializer("d", i64({1}, {-2}));
         g.initializer("v", f32({2}, {0, 1}));
         g.node("OneHot", {"i", "d", "v"}, {"y"}, "bad");
       },
       "depth must not be negative"},
      {"Compress by a 2-D condition",
       [](GraphBuilder& g) {
         x_input(g);
         symbolic_input(g, "c", ElemType::Bool, {"2", "3"});
         g.node("Compress", {"x", "c"}, {"y"}, "bad");
       },
       "condition must be 1-D"},
      {"DepthToSpace of rank 2",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("DepthToSpace", {"x"}, {"y"}, "bad"), "blocksize", 2);
       },
       "must have rank 4"},
      {"DepthToSpace with blocksize 0",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "2", "2"});
         set_int(g.node("DepthToSpace", {"x"}, {"y"}, "bad"), "blocksize", 0);
       },
       "blocksize must be from 1 to 2^31 - 1"},
      {"DepthToSpace of channels not a multiple",
       [](GraphBuilder& g) {
         x_input(g, {"1", "6", "2", "2"});
         set_int(g.node("DepthToSpace", {"x"}, {"y"}, "bad"), "blocksize", 2);
       },
       "channels 6 is not a multiple of 4"},
      {"SpaceToDepth of a height not a multiple",
       [](GraphBuilder& g) {
         x_input(g, {"1", "1", "3", "2"});
         set_int(g.node("SpaceToDepth", {"x"}, {"y"}, "bad"), "blocksize", 2);
       },
       "height 3 is not a multiple of 2"},
      {"EyeLike of rank 3",
       [](GraphBuilder& g) {
         x_input(g, {"2", "2", "2"});
         g.node("EyeLike", {"x"}, {"y"}, "bad");
       },
       "must have rank 2"},
      {"EyeLike of an unknown dtype",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("EyeLike", {"x"}, {"y"}, "bad"), "dtype", 99);
       },
       "dtype is not an element type"},
      {"ConstantOfShape of a negative dim",
       [](GraphBuilder& g) {
         g.initializer("s", i64({2}, {2, -3}));
         g.node("ConstantOfShape", {"s"}, {"y"}, "bad");
       },
       "negative dim -3"},
      {"Unique axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("Unique", {"x"}, {"y"}, "bad"), "axis", 2);
       },
       "axis 2 is out of range"},
      {"Resize sizes for another count of axes",
       [](GraphBuilder& g) {
         x_input(g, {"1", "1", "2", "2"});
         g.initializer("s", i64({2}, {4, 4}));
         g.node("Resize", {"x", "", "", "s"}, {"y"}, "bad");
       },
       "sizes has 2 entries for 4 axes"},
      {"Resize scales for another count of axes",
       [](GraphBuilder& g) {
         x_input(g, {"1", "1", "2", "2"});
         g.initializer("s", f32({2}, {2, 2}));
         g.node("Resize", {"x", "", "s"}, {"y"}, "bad");
       },
       "scales has 2 entries for 4 axes"},
      {"Resize by a scale of 0",
       [](GraphBuilder& g) {
         x_input(g, {"1", "1", "2", "2"});
         g.initializer("s", f32({4}, {1, 1, 0, 1}));
         g.node("Resize", {"x", "", "s"}, {"y"}, "bad");
       },
       "scales must be positive"},
      {"Upsample-1 of rank 2",
       [](GraphBuilder& g) {
         x_input(g);
         auto& n = g.node("Upsample", {"x"}, {"y"}, "bad");
         set_float(n, "height_scale", 2);
         set_float(n, "width_scale", 2);
       },
       "rank 4", 1},
      {"CenterCropPad shape for another count of axes",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({1}, {2}));
         g.node("CenterCropPad", {"x", "s"}, {"y"}, "bad");
       },
       "shape has 1 entries for 2 axes", 18},
      {"CenterCropPad to a negative size",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("s", i64({2}, {2, -1}));
         g.node("CenterCropPad", {"x", "s"}, {"y"}, "bad");
       },
       "must not be negative", 18},
      {"Col2Im of rank 2",
       [](GraphBuilder& g) {
         x_input(g);
         g.initializer("i", i64({2}, {3, 3}));
         g.initializer("b", i64({2}, {1, 1}));
         g.node("Col2Im", {"x", "i", "b"}, {"y"}, "bad");
       },
       "must have rank 3", 18},
      {"Col2Im image and block of different lengths",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "4"});
         g.initializer("i", i64({2}, {3, 3}));
         g.initializer("b", i64({1}, {2}));
         g.node("Col2Im", {"x", "i", "b"}, {"y"}, "bad");
       },
       "differ in length", 18},
      {"Col2Im of a block size of 0",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "4"});
         g.initializer("i", i64({2}, {3, 3}));
         g.initializer("b", i64({2}, {2, 0}));
         g.node("Col2Im", {"x", "i", "b"}, {"y"}, "bad");
       },
       "must be positive", 18},
      {"Col2Im of channels not a multiple of the block",
       [](GraphBuilder& g) {
         x_input(g, {"1", "6", "4"});
         g.initializer("i", i64({2}, {3, 3}));
         g.initializer("b", i64({2}, {2, 2}));
         g.node("Col2Im", {"x", "i", "b"}, {"y"}, "bad");
       },
       "not a multiple of the block size 4", 18},
      {"SequenceEmpty of an unknown dtype",
       [](GraphBuilder& g) { set_int(g.node("SequenceEmpty", {}, {"y"}, "bad"), "dtype", 99); },
       "dtype is not an element type"},
      {"ConcatFromSequence axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         g.node("SequenceConstruct", {"x"}, {"s"}, "sc");
         set_int(g.node("ConcatFromSequence", {"s"}, {"y"}, "bad"), "axis", 2);
       },
       "axis 2 is out of range"},
      {"SplitToSequence axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         set_int(g.node("SplitToSequence", {"x"}, {"y"}, "bad"), "axis", 2);
       },
       "axis 2 is out of range"},
      {"Optional of nothing", [](GraphBuilder& g) { g.node("Optional", {}, {"y"}, "bad"); },
       "needs an input or the attribute 'type'"},
      {"StringNormalizer of rank 3",
       [](GraphBuilder& g) {
         symbolic_input(g, "x", ElemType::String, {"1", "1", "2"});
         g.node("StringNormalizer", {"x"}, {"y"}, "bad");
       },
       "[C] or [1, C]"},
      {"TensorScatter of different ranks",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "2"});
         symbolic_input(g, "u", ElemType::Float, {"1", "2"});
         g.node("TensorScatter", {"x", "u"}, {"y"}, "bad");
       },
       "differ in rank", 24},
      {"TensorScatter of differing dims",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "2"});
         symbolic_input(g, "u", ElemType::Float, {"1", "1", "3"});
         g.node("TensorScatter", {"x", "u"}, {"y"}, "bad");
       },
       "dims 2 and 3 differ", 24},
  };
  return cases;
}

TEST(GroupBInfer, InvalidInputsAreRefusedAtTheNode) {
  for (const BadCase& c : bad_cases()) {
    GraphBuilder g;
    c.build(g);
    g.output_untyped("y");
    auto r = infer_model(g, c.opset);
    EXPECT_TRUE(r.refused("\"bad\"", c.message))
        << c.what << ": expected \"" << c.message << "\", got:\n"
        << r.errors();
  }
}

}  // namespace
}  // namespace bough::test
