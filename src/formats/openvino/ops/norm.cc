// Normalizations, both ways: MVN-1/6 (and ONNX's MeanVarianceNormalization), NormalizeL2-1
// (and ONNX's LpNormalization), BatchNormInference-1/5 (ONNX's BatchNormalization in
// inference). MVN and NormalizeL2 have no one ONNX node of their meaning, so they are
// written out as reductions and elementwise nodes, in the order OpenVINO's references
// compute them.
#include <cstdio>
#include <limits>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// A reduction `op` of x over `axes` (an int64 edge), dims kept; empty axes reduce nothing, as
// in OpenVINO.
ir::Edge* reduce(GraphLowering& g, const std::string& op, ir::Edge* x, ir::Edge* axes,
                 const std::string& name) {
  ir::Edge* out = g.graph()->new_edge(g.model().unique_name(name), ir::Edge::Origin::NodeOutput);
  ir::Node* n = g.node_to(op, {x, axes}, {out}, name);
  n->attributes.push_back(int_attr("keepdims", 1));
  n->attributes.push_back(int_attr("noop_with_empty_axes", 1));
  return out;
}

// `v` as a constant scalar of x's element type, which must be known.
ir::Edge* scalar_like_x(GraphLowering& g, const LayerIO& io, double v, const std::string& name) {
  const ir::Type& t =
      io.in[0]->type.kind == ir::Type::Kind::Tensor ? io.in[0]->type : io.out[0]->type;
  std::optional<Tensor> c;
  if (t.kind == ir::Type::Kind::Tensor) c = scalar_of(t.elem, v);
  if (!c)
    fail(ErrorKind::Unsupported, g.where(io.layer),
         canonical_type(io.layer) + " of an element type not known to be a number");
  return g.constant(std::move(*c), name);
}

// MVN's reference: d = x - mean(x); with normalize_variance, d / sqrt(mean(d * d) + eps)
// (eps inside the root, MVN-1's and MVN-6's default) or d / (sqrt(mean(d * d)) + eps).
void lower_mvn(GraphLowering& g, const LayerIO& io, ir::Edge* axes, bool inside) {
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  const bool normalize = flag(l, "normalize_variance", false);
  ir::Edge* mean = reduce(g, "ReduceMean", io.in[0], axes, name + "/mean");
  if (!normalize) {
    g.node_to("Sub", {io.in[0], mean}, {io.out[0]}, name);
    return;
  }
  ir::Edge* eps = scalar_like_x(g, io, float_data(g, l, "eps", 0), name + "/eps");
  ir::Edge* d = g.node("Sub", {io.in[0], mean}, name + "/centered");
  ir::Edge* var =
      reduce(g, "ReduceMean", g.node("Mul", {d, d}, name + "/square"), axes, name + "/variance");
  ir::Edge* den =
      inside ? g.node("Sqrt", {g.node("Add", {var, eps}, name + "/var_eps")}, name + "/std")
             : g.node("Add", {g.node("Sqrt", {var}, name + "/std"), eps}, name + "/std_eps");
  g.node_to("Div", {d, den}, {io.out[0]}, name);
}

// MVN-1 reduces the axes of reduction_axes, else all but the batch's (across_channels) or
// all but batch and channels; MVN-6 the axes of its input, with eps_mode.
void map_mvn(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (op_version(l) >= 6) {
    check_inputs(g, io, 2, 2);
    const std::string mode = enum_data(l, "eps_mode", "inside_sqrt");
    if (mode != "inside_sqrt" && mode != "outside_sqrt")
      fail(ErrorKind::InvalidModel, g.where(l), "eps_mode \"" + mode + "\"");
    lower_mvn(g, io, g.as_int64(io.in[1], l.name + "/axes"), mode == "inside_sqrt");
    return;
  }
  check_inputs(g, io, 1, 1);
  std::vector<int64_t> axes = int_list(g, l, "reduction_axes");
  if (!l.attr("reduction_axes")) {
    const ir::Shape& s = l.inputs.at(0).shape;
    if (!s.rank_known || s.dims.size() < 2)
      fail(ErrorKind::Unsupported, g.where(l), "MVN-1 of an input whose rank is not known");
    for (size_t i = flag(l, "across_channels", false) ? 1 : 2; i < s.dims.size(); ++i)
      axes.push_back(static_cast<int64_t>(i));
  }
  lower_mvn(g, io, g.constant(i64_tensor(axes), l.name + "/axes"), true);
}

// ONNX's MeanVarianceNormalization: (x - mean) / (sqrt(variance) + 1e-9) over `axes`
// ([0, 2, 3] by default): MVN-6 with eps outside the root.
void write_mvn(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  w.op("MVN", "opset6", name,
       {w.source(n.inputs.at(0)), w.const_i64(ints_attr_or(n, "axes", {0, 2, 3}), name + "/axes")},
       out0(w, n),
       {{"normalize_variance", "true"}, {"eps", "1.00000001e-09"}, {"eps_mode", "outside_sqrt"}});
}

// NormalizeL2-1: x / sqrt(sum(x * x) + eps) (eps_mode add) or x / sqrt(max(sum, eps)) (max)
// over the axes of its second input.
void map_normalize_l2(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  const std::string mode = enum_data(l, "eps_mode", "");
  if (mode != "add" && mode != "max")
    fail(ErrorKind::InvalidModel, g.where(l), "eps_mode \"" + mode + "\"");
  ir::Edge* eps = scalar_like_x(g, io, float_data(g, l, "eps", 0), name + "/eps");
  ir::Edge* sum = reduce(g, "ReduceSum", g.node("Mul", {io.in[0], io.in[0]}, name + "/square"),
                         g.as_int64(io.in[1], name + "/axes"), name + "/sum");
  ir::Edge* bounded = g.node(mode == "add" ? "Add" : "Max", {sum, eps}, name + "/sum_eps");
  g.node_to("Div", {io.in[0], g.node("Sqrt", {bounded}, name + "/norm")}, {io.out[0]}, name);
}

// ONNX's LpNormalization along `axis`: x / ||x||, 0 where the norm is 0. p 2 is NormalizeL2
// with eps_mode max and the smallest float for eps (only a zero sum is below it); p 1 a
// ReduceL1 bounded the same way.
void write_lp_normalization(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const int64_t p = int_attr_or(n, "p", 2);
  PortRef x = w.source(n.inputs.at(0));
  PortRef axes = w.const_i64({int_attr_or(n, "axis", -1)}, name + "/axes");
  if (p == 2) {
    w.op("NormalizeL2", "opset1", name, {x, axes}, out0(w, n),
         {{"eps", "1.40129846e-45"}, {"eps_mode", "max"}});
    return;
  }
  if (p != 1) fail(ErrorKind::InvalidModel, w.where(n), "p must be 1 or 2");
  PortRef norm =
      w.op("ReduceL1", "opset4", name + "/norm", {x, axes}, nullptr, {{"keep_dims", "true"}});
  PortRef tiny = w.op(
      "ConvertLike", "opset1", name + "/tiny",
      {w.constant(Tensor::from_vector(ElemType::Float, {},
                                      std::vector<float>{std::numeric_limits<float>::denorm_min()}),
                  name + "/tiny_f32"),
       x},
      nullptr);
  PortRef bounded = w.op("Maximum", "opset1", name + "/bounded", {norm, tiny}, nullptr,
                         {{"auto_broadcast", "numpy"}});
  w.op("Divide", "opset1", name, {x, bounded}, out0(w, n),
       {{"auto_broadcast", "numpy"}, {"m_pythondiv", "false"}});
}

// BatchNormInference-1 takes (gamma, beta, data, mean, variance), -5 (data, gamma, beta,
// mean, variance): ONNX's BatchNormalization (X, scale, B, mean, var) in inference.
void map_batch_norm(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 5, 5);
  std::vector<ir::Edge*> ins = io.in;
  if (op_version(io.layer) < 5) ins = {io.in[2], io.in[0], io.in[1], io.in[3], io.in[4]};
  g.node_to("BatchNormalization", ins, {io.out[0]}, io.layer.name)
      ->attributes.push_back(
          float_attr("epsilon", static_cast<float>(float_data(g, io.layer, "epsilon", 1e-5))));
}

void write_batch_norm(NetWriter& w, const ir::Node& n) {
  if (int_attr_or(n, "training_mode", 0) != 0 ||
      (n.outputs.size() > 1 && (n.outputs[1] || (n.outputs.size() > 2 && n.outputs[2]))))
    fail(ErrorKind::Unsupported, w.where(n),
         "BatchNormalization in training (OpenVINO's BatchNormInference only infers)");
  const ir::Attribute* eps = n.attr("epsilon");
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", eps ? eps->f : 1e-5f);
  w.op("BatchNormInference", "opset5", layer_name(n), sources(w, n), out0(w, n),
       {{"epsilon", text}});
}

}  // namespace

OpFamily norm_family() {
  return {
      {{"MVN", "2 6", map_mvn},
       {"NormalizeL2", "1", map_normalize_l2},
       {"BatchNormInference", "1 5", map_batch_norm}},
      {{"MeanVarianceNormalization", "MVN-6", write_mvn},
       {"LpNormalization", "NormalizeL2-1 ReduceL1-4 Maximum-1 Divide-1", write_lp_normalization},
       {"BatchNormalization", "BatchNormInference-5", write_batch_norm}}};
}

}  // namespace bough::openvino
