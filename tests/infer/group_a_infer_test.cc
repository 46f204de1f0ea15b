// Inference of the elementwise, reduction, quantization, window and ai.onnx.ml operators:
// output types worked out by hand from the spec, and the models their inference refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "check/diagnostics.h"
#include "formats/onnx/reader.h"
#include "infer/validate.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough::test {
namespace {

// Makes dim `dim` of input `index` the symbol `name`.
void symbol(GraphBuilder& g, int index, int dim, const std::string& name) {
  auto* d = g.mutable_proto()
                .mutable_input(index)
                ->mutable_type()
                ->mutable_tensor_type()
                ->mutable_shape()
                ->mutable_dim(dim);
  d->Clear();
  d->set_dim_param(name);
}

struct Result {
  std::vector<std::string> outputs;  // the inferred type of each graph output
  std::string errors;                // the rendered errors, empty when valid
};

Result validate(const GraphBuilder& g, int64_t opset, int64_t ml_opset = 0) {
  onnxpb::ModelProto m = make_model(g, opset, ml_opset > 0 ? 10 : 8);
  if (ml_opset > 0) {
    auto* imp = m.add_opset_import();
    imp->set_domain("ai.onnx.ml");
    imp->set_version(ml_opset);
  }
  std::string path = save_model(m, scratch_dir("group_a_infer"), "m.onnx");
  std::unique_ptr<ir::Model> model = onnx::read_model_file(path);
  infer::ValidateOptions options;
  options.infer.refine_with_declarations = false;
  infer::Validation v = infer::validate(*model, options);
  Result r;
  if (v.diagnostics.has_errors()) r.errors = check::render_text(v.diagnostics, "m.onnx");
  for (const auto* out : model->graph->outputs)
    r.outputs.push_back(ir::to_string(v.types.type_of(out)));
  return r;
}

// The inferred type of the graph outputs; fails the test when the model is refused.
std::vector<std::string> types(const GraphBuilder& g, int64_t opset, int64_t ml_opset = 0) {
  Result r = validate(g, opset, ml_opset);
  EXPECT_EQ(r.errors, "");
  return r.outputs;
}

// Expects the model refused with an error naming node `node` and containing `text`.
void expect_refused(const GraphBuilder& g, int64_t opset, const std::string& node,
                    const std::string& text, int64_t ml_opset = 0) {
  Result r = validate(g, opset, ml_opset);
  EXPECT_NE(r.errors.find("\"" + node + "\""), std::string::npos) << r.errors;
  EXPECT_NE(r.errors.find(text), std::string::npos) << r.errors;
}

using S = std::vector<std::string>;

// x: float [N, 3, 4].
GraphBuilder with_x(ElemType t = ElemType::Float, Dims64 dims = {1, 3, 4}) {
  GraphBuilder g("main");
  g.input("x", t, std::move(dims));
  symbol(g, 0, 0, "N");
  return g;
}

TEST(GroupAInfer, SymbolicDimsGoThroughElementwiseOps) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {1, 3});
  symbol(g, 0, 0, "N");
  g.input("b", ElemType::Float, {3});
  g.node("Relu", {"a"}, {"r"});
  g.node("Add", {"r", "b"}, {"s"});
  g.node("IsNaN", {"s"}, {"n"});
  g.node("Less", {"a", "b"}, {"l"});
  g.output_untyped("s");
  g.output_untyped("n");
  g.output_untyped("l");
  EXPECT_EQ(types(g, 20), (S{"tensor(float)[N,3]", "tensor(bool)[N,3]", "tensor(bool)[N,3]"}));
}

TEST(GroupAInfer, ReductionsTakeAxesFromTheAttributeOrAKnownInput) {
  GraphBuilder g = with_x();
  g.initializer("axes", i64({1}, {1}));
  g.node("ReduceSum", {"x", "axes"}, {"sum"});
  set_int(g.graph_node_last(), "keepdims", 0);
  g.node("ReduceMax", {"x"}, {"max"});  // no axes: every axis
  g.output_untyped("sum");
  g.output_untyped("max");
  EXPECT_EQ(types(g, 18), (S{"tensor(float)[N,4]", "tensor(float)[1,1,1]"}));

  GraphBuilder old = with_x();
  old.node("ReduceMean", {"x"}, {"mean"});
  set_ints(old.graph_node_last(), "axes", {-1});
  old.output_untyped("mean");
  EXPECT_EQ(types(old, 11), (S{"tensor(float)[N,3,1]"}));
}

TEST(GroupAInfer, ReductionAxesOfUnknownValue) {
  GraphBuilder g = with_x();
  g.input("axes", ElemType::Int64, {1});
  g.input("none", ElemType::Int64, {0});
  g.node("ReduceL1", {"x", "axes"}, {"kept"});
  g.node("ReduceL1", {"x", "axes"}, {"dropped"});
  set_int(g.graph_node_last(), "keepdims", 0);
  g.node("ReduceSum", {"x", "none"}, {"noop"});
  set_int(g.graph_node_last(), "noop_with_empty_axes", 1);
  g.node("ReduceProd", {"x", "none"}, {"all"});
  g.output_untyped("kept");
  g.output_untyped("dropped");
  g.output_untyped("noop");
  g.output_untyped("all");
  EXPECT_EQ(types(g, 18), (S{"tensor(float)[?,?,?]", "tensor(float)[*]", "tensor(float)[N,3,4]",
                             "tensor(float)[1,1,1]"}));
}

TEST(GroupAInfer, ArgMaxGivesInt64Indices) {
  GraphBuilder g = with_x();
  g.node("ArgMax", {"x"}, {"i"});
  set_int(g.graph_node_last(), "axis", 1);
  set_int(g.graph_node_last(), "keepdims", 0);
  g.node("ArgMin", {"x"}, {"j"});
  set_int(g.graph_node_last(), "axis", -1);
  g.output_untyped("i");
  g.output_untyped("j");
  EXPECT_EQ(types(g, 13), (S{"tensor(int64)[N,4]", "tensor(int64)[N,3,1]"}));
}

TEST(GroupAInfer, QuantizationTypesFollowZeroPointScaleAndOutputDtype) {
  GraphBuilder g = with_x();
  g.initializer("scale", f32({}, {0.5f}));
  g.initializer("zp", Tensor::zeros(ElemType::Int8, Dims{}));
  g.node("QuantizeLinear", {"x", "scale"}, {"q_default"});
  g.node("QuantizeLinear", {"x", "scale"}, {"q_dtype"});
  set_int(g.graph_node_last(), "output_dtype", static_cast<int64_t>(ElemType::Int16));
  g.node("QuantizeLinear", {"x", "scale", "zp"}, {"q_zp"});
  g.node("DynamicQuantizeLinear", {"x"}, {"y", "y_scale", "y_zp"});
  g.output_untyped("q_default");
  g.output_untyped("q_dtype");
  g.output_untyped("q_zp");
  g.output_untyped("y");
  g.output_untyped("y_scale");
  g.output_untyped("y_zp");
  EXPECT_EQ(types(g, 21), (S{"tensor(uint8)[N,3,4]", "tensor(int16)[N,3,4]", "tensor(int8)[N,3,4]",
                             "tensor(uint8)[N,3,4]", "tensor(float)[]", "tensor(uint8)[]"}));

  GraphBuilder d = with_x(ElemType::Int8);
  d.input("half_scale", ElemType::Float16, {});
  d.node("DequantizeLinear", {"x", "half_scale"}, {"by_scale"});
  d.node("DequantizeLinear", {"x", "half_scale"}, {"by_dtype"});
  set_int(d.graph_node_last(), "output_dtype", static_cast<int64_t>(ElemType::Float));
  d.output_untyped("by_scale");
  d.output_untyped("by_dtype");
  EXPECT_EQ(types(d, 23), (S{"tensor(float16)[N,3,4]", "tensor(float)[N,3,4]"}));
}

TEST(GroupAInfer, WindowLengthComesFromAKnownSize) {
  GraphBuilder g("main");
  g.initializer("ten", i64({}, {10}));
  g.input("n", ElemType::Int64, {});
  g.node("HannWindow", {"ten"}, {"known"});
  set_int(g.graph_node_last(), "output_datatype", static_cast<int64_t>(ElemType::Double));
  g.node("BlackmanWindow", {"n"}, {"unknown"});
  g.output_untyped("known");
  g.output_untyped("unknown");
  EXPECT_EQ(types(g, 17), (S{"tensor(double)[10]", "tensor(float)[?]"}));
}

TEST(GroupAInfer, DetBitCastAndTheMlOperators) {
  GraphBuilder g("main");
  g.input("m", ElemType::Float, {1, 3, 3});
  symbol(g, 0, 0, "B");
  g.node("Det", {"m"}, {"det"});
  g.node("BitCast", {"m"}, {"bits"});
  set_int(g.graph_node_last(), "to", static_cast<int64_t>(ElemType::Int32));
  g.output_untyped("det");
  g.output_untyped("bits");
  EXPECT_EQ(types(g, 26), (S{"tensor(float)[B]", "tensor(int32)[B,3,3]"}));

  GraphBuilder ml("main");
  ml.input("x", ElemType::Float, {1, 5});
  symbol(ml, 0, 0, "N");
  ml.input("s", ElemType::String, {1});
  symbol(ml, 1, 0, "N");
  ml.initializer("idx", i64({2}, {0, 3}));
  onnxpb::NodeProto& afe = ml.node("ArrayFeatureExtractor", {"x", "idx"}, {"picked"});
  afe.set_domain("ai.onnx.ml");
  onnxpb::NodeProto& le = ml.node("LabelEncoder", {"s"}, {"codes"});
  le.set_domain("ai.onnx.ml");
  set_string(le, "default_string", "x");
  auto* keys = le.add_attribute();
  keys->set_name("keys_strings");
  keys->set_type(onnxpb::AttributeProto::STRINGS);
  keys->add_strings("a");
  auto* values = le.add_attribute();
  values->set_name("values_floats");
  values->set_type(onnxpb::AttributeProto::FLOATS);
  values->add_floats(1.0f);
  ml.output_untyped("picked");
  ml.output_untyped("codes");
  EXPECT_EQ(types(ml, 21, 2), (S{"tensor(float)[N,2]", "tensor(float)[N]"}));
}

// A TreeEnsemble (ai.onnx.ml 5) of one leaf over input x, with n_targets 2.
GraphBuilder tree_ensemble(Dims64 x_dims) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, std::move(x_dims));
  symbol(g, 0, 0, "N");
  onnxpb::NodeProto& n = g.node("TreeEnsemble", {"x"}, {"y"}, "forest");
  n.set_domain("ai.onnx.ml");
  set_ints(n, "nodes_featureids", {0});
  set_tensor(n, "nodes_splits", f32({1}, {0.5f}));
  set_tensor(n, "nodes_modes", Tensor::zeros(ElemType::UInt8, Dims{1}));
  set_ints(n, "nodes_truenodeids", {0});
  set_ints(n, "nodes_falsenodeids", {0});
  set_ints(n, "nodes_trueleafs", {1});
  set_ints(n, "nodes_falseleafs", {1});
  set_ints(n, "tree_roots", {0});
  set_ints(n, "leaf_targetids", {1});
  set_tensor(n, "leaf_weights", f32({1}, {2.0f}));
  set_int(n, "n_targets", 2);
  g.output_untyped("y");
  return g;
}

TEST(GroupAInfer, TreeEnsembleGivesBatchByTargets) {
  EXPECT_EQ(types(tree_ensemble({1, 4}), 21, 5), (S{"tensor(float)[N,2]"}));
  expect_refused(tree_ensemble({1, 4, 2}), 21, "forest", "[N, features]", 5);
}

TEST(GroupAInfer, RefusedInputs) {
  {
    GraphBuilder g = with_x();
    g.initializer("axes", i64({1}, {3}));
    g.node("ReduceSum", {"x", "axes"}, {"y"}, "sum");
    g.output_untyped("y");
    expect_refused(g, 13, "sum", "axis 3 is out of range for rank 3");
  }
  {
    GraphBuilder g = with_x();
    g.node("ArgMax", {"x"}, {"y"}, "argmax");
    set_int(g.graph_node_last(), "axis", -4);
    g.output_untyped("y");
    expect_refused(g, 13, "argmax", "axis -4 is out of range for rank 3");
  }
  {
    GraphBuilder g("main");
    g.input("v", ElemType::Float, {3});
    g.node("Det", {"v"}, {"y"}, "det");
    g.output_untyped("y");
    expect_refused(g, 13, "det", "rank 2 or more");
  }
  {
    GraphBuilder g("main");
    g.input("m", ElemType::Float, {2, 3});
    g.node("Det", {"m"}, {"y"}, "det");
    g.output_untyped("y");
    expect_refused(g, 13, "det", "square matrices, got 2x3");
  }
  {
    GraphBuilder g = with_x();
    g.initializer("scale", f32({}, {0.5f}));
    g.initializer("zp", Tensor::zeros(ElemType::Int8, Dims{}));
    g.node("QuantizeLinear", {"x", "scale", "zp"}, {"y"}, "quant");
    set_int(g.graph_node_last(), "output_dtype", static_cast<int64_t>(ElemType::UInt8));
    g.output_untyped("y");
    expect_refused(g, 21, "quant", "output_dtype uint8 differs from y_zero_point's type int8");
  }
  {
    GraphBuilder g = with_x();
    g.initializer("scale", f32({}, {0.5f}));
    g.node("QuantizeLinear", {"x", "scale"}, {"y"}, "quant");
    set_int(g.graph_node_last(), "output_dtype", 99);
    g.output_untyped("y");
    expect_refused(g, 21, "quant", "unsupported output_dtype 99");
  }
  {
    GraphBuilder g = with_x(ElemType::Int8);
    g.initializer("scale", f32({}, {0.5f}));
    g.node("DequantizeLinear", {"x", "scale"}, {"y"}, "dequant");
    set_int(g.graph_node_last(), "output_dtype", 99);
    g.output_untyped("y");
    expect_refused(g, 23, "dequant", "unsupported output_dtype 99");
  }
  {
    GraphBuilder g = with_x();
    g.node("BitCast", {"x"}, {"y"}, "bits");
    set_int(g.graph_node_last(), "to", static_cast<int64_t>(ElemType::Int64));
    g.output_untyped("y");
    expect_refused(g, 26, "bits", "BitCast from float to int64 changes the element width");
  }
  {
    GraphBuilder g = with_x();
    g.node("BitCast", {"x"}, {"y"}, "bits");
    set_int(g.graph_node_last(), "to", static_cast<int64_t>(ElemType::String));
    g.output_untyped("y");
    expect_refused(g, 26, "bits", "valid non-string `to`");
  }
  {
    GraphBuilder g("main");
    g.initializer("size", i64({}, {-1}));
    g.node("HammingWindow", {"size"}, {"y"}, "window");
    g.output_untyped("y");
    expect_refused(g, 17, "window", "window size must not be negative");
  }
  {
    GraphBuilder g("main");
    g.initializer("size", i64({}, {4}));
    g.node("HannWindow", {"size"}, {"y"}, "window");
    set_int(g.graph_node_last(), "output_datatype", 99);
    g.output_untyped("y");
    expect_refused(g, 17, "window", "unsupported output_datatype 99");
  }
  {
    GraphBuilder g("main");
    g.input("x", ElemType::Float, {});
    g.initializer("idx", i64({1}, {0}));
    g.node("ArrayFeatureExtractor", {"x", "idx"}, {"y"}, "pick").set_domain("ai.onnx.ml");
    g.output_untyped("y");
    expect_refused(g, 21, "pick", "X of rank >= 1", 1);
  }
  {
    GraphBuilder g("main");
    g.input("s", ElemType::String, {2});
    onnxpb::NodeProto& le = g.node("LabelEncoder", {"s"}, {"y"}, "encode");
    le.set_domain("ai.onnx.ml");
    auto* keys = le.add_attribute();
    keys->set_name("keys_strings");
    keys->set_type(onnxpb::AttributeProto::STRINGS);
    keys->add_strings("a");
    g.output_untyped("y");
    expect_refused(g, 21, "encode", "exactly one values_* attribute", 2);
  }
}

}  // namespace
}  // namespace bough::test
