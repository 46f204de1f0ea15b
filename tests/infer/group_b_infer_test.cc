// Inference of the data-movement, sequence, optional and string operators (group B): output
// types worked out by hand from symbolic dims, attributes and values known before running,
// and the inputs that cannot be valid, refused by infer::validate at the node.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"

namespace bough::test {
namespace {

// Input `name` with dims written as text: digits give a known dim, anything else a symbol.
void input(GraphBuilder& g, const std::string& name, ElemType t,
           const std::vector<std::string>& dims) {
  g.input(name, t, Dims64(dims.size(), 1));
  auto* shape = g.mutable_proto()
                    .mutable_input(g.proto().input_size() - 1)
                    ->mutable_type()
                    ->mutable_tensor_type()
                    ->mutable_shape();
  for (size_t k = 0; k < dims.size(); ++k) {
    auto* d = shape->mutable_dim(static_cast<int>(k));
    if (std::isdigit(static_cast<unsigned char>(dims[k][0])))
      d->set_dim_value(std::stoll(dims[k]));
    else
      d->set_dim_param(dims[k]);
  }
}

struct Inferred {
  std::unique_ptr<ir::Model> model;
  infer::Validation v;

  // The type inference gives graph output k, as text.
  std::string out(size_t k) const {
    return ir::to_string(v.types.type_of(model->graph->outputs.at(k)));
  }
  // Whether an error at a place naming `node` says `text`.
  bool refused(const std::string& node, const std::string& text) const {
    for (const auto& d : v.diagnostics.all())
      if (d.severity == check::Severity::Error && d.place.find(node) != std::string::npos &&
          d.message.find(text) != std::string::npos)
        return true;
    return false;
  }
  std::string errors() const {
    std::string s;
    for (const auto& d : v.diagnostics.all()) s += d.place + ": " + d.message + "\n";
    return s;
  }
};

// Outputs are left untyped so that only inference speaks.
Inferred infer_graph(GraphBuilder& g, const std::vector<std::string>& outputs, int64_t opset = 17) {
  for (const std::string& o : outputs) g.output_untyped(o);
  std::string bytes;
  make_model(g, opset).SerializeToString(&bytes);
  Inferred r;
  r.model = onnx::read_model_bytes(bytes, "group_b.onnx", "");
  infer::ValidateOptions options;
  options.infer.refine_with_declarations = false;
  r.v = infer::validate(*r.model, options);
  return r;
}

// --- symbolic dims carried through --------------------------------------------------------

TEST(GroupBInfer, TransposeMovesSymbols) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "3", "4"});
  set_ints(g.node("Transpose", {"x"}, {"y"}, "t"), "perm", {2, 0, 1});
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.out(0), "tensor(float)[4,N,3]") << r.errors();
}

TEST(GroupBInfer, ConcatAddsTheAxisAndKeepsTheRest) {
  GraphBuilder g;
  input(g, "a", ElemType::Float, {"N", "2"});
  input(g, "b", ElemType::Float, {"N", "3"});
  set_int(g.node("Concat", {"a", "b"}, {"y"}, "c"), "axis", 1);
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,5]") << r.errors();
}

TEST(GroupBInfer, FlattenAndCastKeepSymbols) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "3", "4"});
  set_int(g.node("Flatten", {"x"}, {"f"}, "f"), "axis", 1);
  set_int(g.node("Cast", {"x"}, {"c"}, "c"), "to", static_cast<int64_t>(ElemType::Int64));
  auto r = infer_graph(g, {"f", "c"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,12]");
  EXPECT_EQ(r.out(1), "tensor(int64)[N,3,4]");
}

TEST(GroupBInfer, GatherPutsTheIndicesShapeAtTheAxis) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"5", "N"});
  input(g, "i", ElemType::Int64, {"2", "3"});
  set_int(g.node("Gather", {"x", "i"}, {"y"}, "g"), "axis", 1);
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.out(0), "tensor(float)[5,2,3]");
}

TEST(GroupBInfer, SequencesCoverTheirElements) {
  GraphBuilder g;
  input(g, "a", ElemType::Float, {"2", "3"});
  input(g, "b", ElemType::Float, {"2", "4"});
  g.initializer("p", i64({}, {1}));
  g.node("SequenceConstruct", {"a", "b"}, {"s"}, "sc");
  g.node("SequenceAt", {"s", "p"}, {"t"}, "at");
  g.node("SequenceLength", {"s"}, {"n"}, "len");
  auto r = infer_graph(g, {"s", "t", "n"});
  EXPECT_EQ(r.out(0), "seq(tensor(float)[2,?])");
  EXPECT_EQ(r.out(1), "tensor(float)[2,?]");
  EXPECT_EQ(r.out(2), "tensor(int64)[]");
}

// --- attribute-driven shapes --------------------------------------------------------------

TEST(GroupBInfer, SplitByNumOutputsLeavesTheLastChunkSmaller) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"7", "N"});
  set_int(g.node("Split", {"x"}, {"a", "b", "c"}, "s"), "num_outputs", 3);
  auto r = infer_graph(g, {"a", "b", "c"}, 18);
  EXPECT_EQ(r.out(0), "tensor(float)[3,N]") << r.errors();
  EXPECT_EQ(r.out(1), "tensor(float)[3,N]");
  EXPECT_EQ(r.out(2), "tensor(float)[1,N]");
}

TEST(GroupBInfer, DepthToSpaceAndSpaceToDepth) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "8", "3", "5"});
  set_int(g.node("DepthToSpace", {"x"}, {"d"}, "d2s"), "blocksize", 2);
  input(g, "z", ElemType::Float, {"1", "3", "4", "6"});
  set_int(g.node("SpaceToDepth", {"z"}, {"s"}, "s2d"), "blocksize", 2);
  auto r = infer_graph(g, {"d", "s"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,2,6,10]");
  EXPECT_EQ(r.out(1), "tensor(float)[1,12,2,3]");
}

TEST(GroupBInfer, ConstantGivesItsValue) {
  GraphBuilder g;
  set_ints(g.node("Constant", {}, {"c"}, "k"), "value_ints", {4, 5, 6});
  g.node("ConstantOfShape", {"c"}, {"z"}, "cos");
  auto r = infer_graph(g, {"c", "z"});
  EXPECT_EQ(r.out(0), "tensor(int64)[3]");
  EXPECT_EQ(r.out(1), "tensor(float)[4,5,6]");
}

// --- shapes fixed by values known before running ------------------------------------------

TEST(GroupBInfer, ReshapeCopiesAndInfersDims) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "3", "4"});
  g.initializer("shape", i64({2}, {0, -1}));
  g.node("Reshape", {"x", "shape"}, {"y"}, "r");
  auto r = infer_graph(g, {"y"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,12]") << r.errors();
}

TEST(GroupBInfer, ReshapeToAShapeComputedFromAnother) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"2", "3", "4"});
  input(g, "flat", ElemType::Float, {"24"});
  g.node("Shape", {"x"}, {"s"}, "shape");
  g.node("Reshape", {"flat", "s"}, {"y"}, "r");
  auto r = infer_graph(g, {"s", "y"});
  EXPECT_EQ(r.out(0), "tensor(int64)[3]");
  EXPECT_EQ(r.out(1), "tensor(float)[2,3,4]") << r.errors();
}

TEST(GroupBInfer, SliceExpandTileAndPad) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "10"});
  g.initializer("starts", i64({1}, {2}));
  g.initializer("ends", i64({1}, {-1}));
  g.initializer("axes", i64({1}, {1}));
  g.node("Slice", {"x", "starts", "ends", "axes"}, {"sl"}, "slice");
  input(g, "e", ElemType::Float, {"3", "1"});
  g.initializer("eshape", i64({3}, {2, 1, 4}));
  g.node("Expand", {"e", "eshape"}, {"ex"}, "expand");
  g.initializer("reps", i64({2}, {2, 3}));
  g.node("Tile", {"e", "reps"}, {"ti"}, "tile");
  input(g, "p", ElemType::Float, {"2", "M"});
  g.initializer("pads", i64({4}, {1, 0, 1, 2}));
  g.node("Pad", {"p", "pads"}, {"pa"}, "pad");
  auto r = infer_graph(g, {"sl", "ex", "ti", "pa"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,7]") << r.errors();
  EXPECT_EQ(r.out(1), "tensor(float)[2,3,4]");
  EXPECT_EQ(r.out(2), "tensor(float)[6,3]");
  EXPECT_EQ(r.out(3), "tensor(float)[4,?]");
}

TEST(GroupBInfer, TopKRangeAndUnsqueeze) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"N", "5"});
  g.initializer("k", i64({1}, {2}));
  g.node("TopK", {"x", "k"}, {"v", "i"}, "topk");
  g.initializer("start", f32({}, {0}));
  g.initializer("limit", f32({}, {10}));
  g.initializer("delta", f32({}, {3}));
  g.node("Range", {"start", "limit", "delta"}, {"rg"}, "range");
  g.initializer("uaxes", i64({2}, {0, -1}));
  g.node("Unsqueeze", {"x", "uaxes"}, {"u"}, "unsq");
  auto r = infer_graph(g, {"v", "i", "rg", "u"});
  EXPECT_EQ(r.out(0), "tensor(float)[N,2]") << r.errors();
  EXPECT_EQ(r.out(1), "tensor(int64)[N,2]");
  EXPECT_EQ(r.out(2), "tensor(float)[4]");
  EXPECT_EQ(r.out(3), "tensor(float)[1,N,5,1]");
}

TEST(GroupBInfer, ResizeByScalesAndBySizes) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"1", "1", "2", "3"});
  g.initializer("scales", f32({4}, {1, 1, 2, 2}));
  g.node("Resize", {"x", "", "scales"}, {"a"}, "by_scales");
  g.initializer("sizes", i64({4}, {1, 1, 5, 7}));
  g.node("Resize", {"x", "", "", "sizes"}, {"b"}, "by_sizes");
  auto r = infer_graph(g, {"a", "b"}, 13);
  EXPECT_EQ(r.out(0), "tensor(float)[1,1,4,6]") << r.errors();
  EXPECT_EQ(r.out(1), "tensor(float)[1,1,5,7]");
}

// Scales that would give a dim past 2^40 (or NaN) leave it unknown instead of converting
// 1e30 * 2 or NaN to int64 (undefined); the run then refuses the scales with a clear error.
TEST(GroupBInfer, ResizeDimsOutOfRangeStayUnknown) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"1", "1", "2", "3"});
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
  EXPECT_EQ(r.out(0), "tensor(float)[1,1,?,6]") << r.errors();
  EXPECT_EQ(r.out(1), "tensor(float)[1,1,?,6]");
  EXPECT_EQ(r.out(2), "tensor(float)[?,?,?,?]");
}

TEST(GroupBInfer, UnknownCountsStayUnknown) {
  GraphBuilder g;
  input(g, "x", ElemType::Float, {"2", "3"});
  g.node("NonZero", {"x"}, {"nz"}, "nz");
  g.node("Unique", {"x"}, {"u", "idx", "inv", "cnt"}, "uniq");
  auto r = infer_graph(g, {"nz", "u", "inv"});
  EXPECT_EQ(r.out(0), "tensor(int64)[2,?]");
  EXPECT_EQ(r.out(1), "tensor(float)[?]");
  EXPECT_EQ(r.out(2), "tensor(int64)[6]");
}

// --- inputs that cannot be valid ----------------------------------------------------------

struct BadCase {
  const char* what;
  std::function<void(GraphBuilder&)> build;  // adds inputs and a node named "bad" with output y
  const char* message;
  int64_t opset = 17;
};

void x_input(GraphBuilder& g, std::vector<std::string> dims = {"2", "3"}) {
  input(g, "x", ElemType::Float, dims);
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
         input(g, "z", ElemType::Float, {"2"});
         set_int(g.node("Concat", {"x", "z"}, {"y"}, "bad"), "axis", 0);
       },
       "inputs of ranks 2 and 1"},
      {"Concat of differing dims",
       [](GraphBuilder& g) {
         x_input(g);
         input(g, "z", ElemType::Float, {"2", "4"});
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
         input(g, "c", ElemType::Bool, {"4"});
         g.node("Where", {"c", "x", "x"}, {"y"}, "bad");
       },
       "cannot be broadcast"},
      {"Gather of a scalar",
       [](GraphBuilder& g) {
         x_input(g, {});
         input(g, "i", ElemType::Int64, {"1"});
         g.node("Gather", {"x", "i"}, {"y"}, "bad");
       },
       "rank >= 1"},
      {"Gather axis out of range",
       [](GraphBuilder& g) {
         x_input(g);
         input(g, "i", ElemType::Int64, {"1"});
         set_int(g.node("Gather", {"x", "i"}, {"y"}, "bad"), "axis", -3);
       },
       "axis -3 is out of range"},
      {"GatherElements of another rank",
       [](GraphBuilder& g) {
         x_input(g);
         input(g, "i", ElemType::Int64, {"1"});
         g.node("GatherElements", {"x", "i"}, {"y"}, "bad");
       },
       "indices of rank 1 for data of rank 2"},
      {"GatherND tuples longer than the rank",
       [](GraphBuilder& g) {
         x_input(g);
         input(g, "i", ElemType::Int64, {"1", "3"});
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
         input(g, "s", ElemType::Int64, {});
         g.initializer("l", i64({}, {5}));
         g.initializer("d", i64({}, {0}));
         g.node("Range", {"s", "l", "d"}, {"y"}, "bad");
       },
       "delta is 0"},
      {"Range with a float delta of 0",
       [](GraphBuilder& g) {
         input(g, "s", ElemType::Float, {});
         g.initializer("l", f32({}, {5}));
         g.initializer("d", f32({}, {0}));
         g.node("Range", {"s", "l", "d"}, {"y"}, "bad");
       },
       "delta is 0"},
      {"OneHot of two depths",
       [](GraphBuilder& g) {
         input(g, "i", ElemType::Int64, {"3"});
         g.initializer("d", i64({2}, {2, 3}));
         g.initializer("v", f32({2}, {0, 1}));
         g.node("OneHot", {"i", "d", "v"}, {"y"}, "bad");
       },
       "depth must hold one value"},
      {"OneHot of a negative depth",
       [](GraphBuilder& g) {
         input(g, "i", ElemType::Int64, {"3"});
         g.initializer("d", i64({1}, {-2}));
         g.initializer("v", f32({2}, {0, 1}));
         g.node("OneHot", {"i", "d", "v"}, {"y"}, "bad");
       },
       "depth must not be negative"},
      {"Compress by a 2-D condition",
       [](GraphBuilder& g) {
         x_input(g);
         input(g, "c", ElemType::Bool, {"2", "3"});
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
         input(g, "x", ElemType::String, {"1", "1", "2"});
         g.node("StringNormalizer", {"x"}, {"y"}, "bad");
       },
       "[C] or [1, C]"},
      {"TensorScatter of different ranks",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "2"});
         input(g, "u", ElemType::Float, {"1", "2"});
         g.node("TensorScatter", {"x", "u"}, {"y"}, "bad");
       },
       "differ in rank", 24},
      {"TensorScatter of differing dims",
       [](GraphBuilder& g) {
         x_input(g, {"1", "4", "2"});
         input(g, "u", ElemType::Float, {"1", "1", "3"});
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
    auto r = infer_graph(g, {"y"}, c.opset);
    EXPECT_TRUE(r.refused("\"bad\"", c.message))
        << c.what << ": expected \"" << c.message << "\", got:\n"
        << r.errors();
  }
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
  EXPECT_EQ(r.out(0), "seq(tensor(int64)[?])") << r.errors();
}

}  // namespace
}  // namespace bough::test
