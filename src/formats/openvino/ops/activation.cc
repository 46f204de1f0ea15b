// Activations, both ways: Gelu-2/7, Swish-4, HSigmoid-5 (and ONNX's HardSigmoid), PRelu-1
// and Selu-1. Their parameters are inputs in OpenVINO and attributes in ONNX, so reading
// them needs constants, and writing them makes constants converted like x.
#include <cmath>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// The one value of constant input `k`.
double scalar_input(GraphLowering& g, const LayerIO& io, size_t k, const char* what) {
  std::vector<double> v = const_floats(g, io, k, what);
  if (v.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), std::string(what) + " must hold one value");
  return v[0];
}

// `v` as a scalar of x's element type: a Const of it when the type is known (so a reader
// sees the value), else an f32 Const converted like x at run time.
PortRef scalar_like(NetWriter& w, float v, const ir::Edge* x, const std::string& name) {
  if (x->type.kind == ir::Type::Kind::Tensor)
    if (std::optional<Tensor> c = scalar_of(x->type.elem, v)) return w.constant(*c, name);
  return w.op(
      "ConvertLike", "opset1", name,
      {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{v}), name + "_f32"),
       w.source(x)},
      nullptr);
}

// An intermediate layer's output `p` declared with x's type and shape (which it has), so
// that a reader knows its element type.
PortRef typed_like(NetWriter& w, PortRef p, const ir::Edge* x) {
  const ir::Type& t = x->type;
  if (t.kind == ir::Type::Kind::Tensor && t.shape.rank_known) {
    w.output_port(p).elem = t.elem;
    w.output_port(p).shape = t.shape;
  }
  return p;
}

float float_attr_or(const ir::Node& n, const char* name, float fallback) {
  const ir::Attribute* a = n.attr(name);
  return a ? a->f : fallback;
}

// Gelu-2 is the erf form; Gelu-7 names it by approximation_mode, ERF (the default) or TANH.
void map_gelu(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string mode =
      op_version(io.layer) >= 7 ? enum_data(io.layer, "approximation_mode", "erf") : "erf";
  if (mode != "erf" && mode != "tanh")
    fail(ErrorKind::InvalidModel, g.where(io.layer), "approximation_mode \"" + mode + "\"");
  g.node_to("Gelu", {io.in[0]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(string_attr("approximate", mode == "tanh" ? "tanh" : "none"));
}

void write_gelu(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("approximate");
  const std::string mode = a ? a->s : "none";
  if (mode != "none" && mode != "tanh")
    fail(ErrorKind::InvalidModel, w.where(n), "approximate \"" + mode + "\"");
  w.op("Gelu", "opset7", layer_name(n), sources(w, n), out0(w, n),
       {{"approximation_mode", mode == "tanh" ? "TANH" : "ERF"}});
}

// Swish-4: x * sigmoid(beta * x), beta an optional scalar input (1 by default); ONNX's Swish
// takes it as the attribute alpha, so a beta known only at run time is written out.
void map_swish(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 2);
  const std::string& name = io.layer.name;
  if (io.in.size() == 2 && !GraphLowering::constant_value(io.in[1])) {
    ir::Edge* scaled = g.node("Mul", {io.in[0], io.in[1]}, name + "/beta_x");
    ir::Edge* gate = g.node("Sigmoid", {scaled}, name + "/sigmoid");
    g.node_to("Mul", {io.in[0], gate}, {io.out[0]}, name);
    return;
  }
  const double beta = io.in.size() == 2 ? scalar_input(g, io, 1, "beta") : 1.0;
  g.node_to("Swish", {io.in[0]}, {io.out[0]}, name)
      ->attributes.push_back(float_attr("alpha", static_cast<float>(beta)));
}

void write_swish(NetWriter& w, const ir::Node& n) {
  const float alpha = float_attr_or(n, "alpha", 1.0f);
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  if (alpha != 1.0f) ins.push_back(scalar_like(w, alpha, n.inputs[0], layer_name(n) + "/beta"));
  w.op("Swish", "opset4", layer_name(n), ins, out0(w, n));
}

// HSigmoid-5 is min(max(x + 3, 0), 6) / 6: ONNX's HardSigmoid with alpha 1/6 and beta 1/2
// (max(0, min(1, alpha * x + beta))), equal but for rounding.
constexpr float kSixth = 1.0f / 6.0f;

void map_hsigmoid(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  ir::Node* n = g.node_to("HardSigmoid", {io.in[0]}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(float_attr("alpha", kSixth));
  n->attributes.push_back(float_attr("beta", 0.5f));
}

// HardSigmoid with HSigmoid's factors is HSigmoid-5; any other is Clamp(alpha * x + beta).
void write_hard_sigmoid(NetWriter& w, const ir::Node& n) {
  const float alpha = float_attr_or(n, "alpha", 0.2f), beta = float_attr_or(n, "beta", 0.5f);
  const std::string name = layer_name(n);
  const ir::Edge* x = n.inputs.at(0);
  if (alpha == kSixth && beta == 0.5f) {
    w.op("HSigmoid", "opset5", name, {w.source(x)}, out0(w, n));
    return;
  }
  PortRef scaled = w.op("Multiply", "opset1", name + "/scaled",
                        {w.source(x), scalar_like(w, alpha, x, name + "/alpha")}, nullptr,
                        {{"auto_broadcast", "numpy"}});
  PortRef shifted = w.op("Add", "opset1", name + "/shifted",
                         {typed_like(w, scaled, x), scalar_like(w, beta, x, name + "/beta")},
                         nullptr, {{"auto_broadcast", "numpy"}});
  w.op("Clamp", "opset1", name, {typed_like(w, shifted, x)}, out0(w, n),
       {{"min", "0"}, {"max", "1"}});
}

// The shape of input `k` as the value's type gives it, else as its port declares it.
const ir::Shape& shape_of_input(const LayerIO& io, size_t k) {
  const ir::Type& t = io.in.at(k)->type;
  return t.kind == ir::Type::Kind::Tensor && t.shape.rank_known ? t.shape
                                                                : io.layer.inputs.at(k).shape;
}

// PRelu-1 (OpenVINO's reference): a 1-d slope as long as x's channel axis (axis 1) applies
// along it; any other broadcasts as numpy does. ONNX's PRelu always aligns the slope with
// x's last axes, so a channel slope gets trailing axes of 1.
void map_prelu(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const ir::Shape& x = shape_of_input(io, 0);
  const ir::Shape& slope = shape_of_input(io, 1);
  ir::Edge* s = io.in[1];
  if (slope.rank_known && slope.dims.size() == 1 && (!x.rank_known || x.dims.size() > 2)) {
    const ir::Dim& c = slope.dims[0];
    const bool one = c.is_known() && c.value == 1;
    if (!one && (!x.rank_known || !x.dims[1].is_known() || !c.is_known()))
      fail(ErrorKind::Unsupported, g.where(io.layer),
           "PRelu with a 1-d slope on x whose channel dim or rank is not known");
    if (!one && x.dims[1].value == c.value) {
      std::vector<int64_t> axes;
      for (size_t i = 2; i < x.dims.size(); ++i) axes.push_back(static_cast<int64_t>(i - 1));
      s = g.node("Unsqueeze", {s, g.constant(i64_tensor(axes), io.layer.name + "/channel_axes")},
                 io.layer.name + "/channel_slope");
    }
  }
  g.node_to("PRelu", {io.in[0], s}, {io.out[0]}, io.layer.name);
}

// ONNX's slope aligns with x's last axes; a 1-d slope is made [1, C] so that OpenVINO's
// channel rule cannot take it for axis 1 of x (and a slope of unknown rank is broadcast to
// x's shape).
void write_prelu(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const ir::Type& x = n.inputs.at(0)->type;
  const ir::Edge* slope = n.inputs.at(1);
  PortRef s = w.source(slope);
  const bool x_small =
      x.kind == ir::Type::Kind::Tensor && x.shape.rank_known && x.shape.dims.size() <= 2;
  std::optional<size_t> slope_rank;
  if (slope->data)
    slope_rank = slope->data->shape().size();
  else if (slope->type.kind == ir::Type::Kind::Tensor && slope->type.shape.rank_known)
    slope_rank = slope->type.shape.dims.size();
  if (!slope_rank) {
    // Broadcast to x's shape, as ONNX would: never 1-d when x is not.
    PortRef shape = w.op("ShapeOf", "opset3", name + "/x_shape", {w.source(n.inputs[0])}, nullptr,
                         {{"output_type", "i64"}});
    s = w.op("Broadcast", "opset3", name + "/slope_full", {s, shape}, nullptr, {{"mode", "numpy"}});
  } else if (*slope_rank == 1 && !x_small)
    s = w.op("Unsqueeze", "opset1", name + "/slope_2d", {s, w.const_i64({0}, name + "/slope_axis")},
             nullptr);
  w.op("PRelu", "opset1", name, {w.source(n.inputs[0]), s}, out0(w, n));
}

// Selu-1: lambda * (x > 0 ? x : alpha * (exp(x) - 1)), alpha and lambda as inputs; ONNX's
// gamma is lambda.
void map_selu(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  ir::Node* n = g.node_to("Selu", {io.in[0]}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(float_attr("alpha", static_cast<float>(scalar_input(g, io, 1, "alpha"))));
  n->attributes.push_back(
      float_attr("gamma", static_cast<float>(scalar_input(g, io, 2, "lambda"))));
}

void write_selu(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const ir::Edge* x = n.inputs.at(0);
  const float alpha = float_attr_or(n, "alpha", 1.67326319217681884765625f);
  const float gamma = float_attr_or(n, "gamma", 1.05070102214813232421875f);
  w.op("Selu", "opset1", name,
       {w.source(x), scalar_like(w, alpha, x, name + "/alpha"),
        scalar_like(w, gamma, x, name + "/lambda")},
       out0(w, n));
}

}  // namespace

OpFamily activation_family() {
  return {{{"Gelu", "2 7", map_gelu},
           {"Swish", "4", map_swish},
           {"HSigmoid", "5", map_hsigmoid},
           {"PRelu", "1", map_prelu},
           {"Selu", "1", map_selu}},
          {{"Gelu", "Gelu-7", write_gelu},
           {"Swish", "Swish-4", write_swish},
           {"HardSigmoid", "HSigmoid-5 Clamp-1", write_hard_sigmoid},
           {"PRelu", "PRelu-1", write_prelu},
           {"Selu", "Selu-1", write_selu}}};
}

}  // namespace bough::openvino
