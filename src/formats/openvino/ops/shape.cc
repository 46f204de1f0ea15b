// Shape and data movement, both ways: Reshape (and ONNX's Flatten), Squeeze, Unsqueeze,
// Concat, ShapeOf (ONNX's Shape and Size), Split and VariadicSplit, Transpose, Slice, Tile,
// Range, Pad, and the ONNX operators that only move or make data (Identity, Constant,
// ConstantOfShape). Values that ONNX keeps in attributes (axes, perm) become Const inputs;
// inputs that ONNX wants as attributes (Transpose's order, Split's axis) must be constants.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// Split-1 cuts into num_splits equal parts (ONNX's num_outputs); VariadicSplit takes the
// lengths as an input, which ONNX's Split takes too, though without OpenVINO's -1 for "the
// rest".
void map_split(GraphLowering& g, const LayerIO& io) {
  const std::string& type = canonical_type(io.layer);
  const bool variadic = type == "VariadicSplit";
  if (io.in.size() != (variadic ? 3u : 2u) || io.out.empty())
    fail(ErrorKind::InvalidModel, g.where(io.layer), type + " has the wrong inputs");
  const int64_t axis = const_axis(g, io, 1);
  std::vector<ir::Edge*> ins{io.in[0]};
  if (variadic) {
    if (GraphLowering::constant_value(io.in[2]))
      for (int64_t v : const_ints(g, io, 2, "split_lengths"))
        if (v < 0) fail(ErrorKind::Unsupported, g.where(io.layer), "split_lengths with -1");
    ins.push_back(g.as_int64(io.in[2], io.layer.name + "/lengths"));
  }
  ir::Node* n = g.node_to("Split", ins, io.out, io.layer.name);
  n->attributes.push_back(int_attr("axis", axis));
  if (!variadic)
    n->attributes.push_back(int_attr("num_outputs", static_cast<int64_t>(io.out.size())));
}

// special_zero=true: a 0 copies the input's dim, which is ONNX's allowzero=0.
void map_reshape(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  ir::Edge* shape = g.as_int64(io.in[1], io.layer.name + "/shape");
  ir::Node* n = g.node_to("Reshape", {io.in[0], shape}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("allowzero", flag(io.layer, "special_zero", false) ? 0 : 1));
}

// Squeeze and Unsqueeze take their axes as an input in both formats.
void map_axes_op(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 2);
  std::vector<ir::Edge*> ins{io.in[0]};
  if (io.in.size() == 2) ins.push_back(g.as_int64(io.in[1], io.layer.name + "/axes"));
  g.node_to(canonical_type(io.layer), ins, {io.out[0]}, io.layer.name);
}

void map_concat(GraphLowering& g, const LayerIO& io) {
  if (io.in.empty() || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer), "Concat needs inputs and one output");
  ir::Node* n = g.node_to("Concat", io.in, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 0)));
}

void map_shape_of(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string* type = io.layer.attr("output_type");
  if (!type || *type == "i64") {
    g.node_to("Shape", {io.in[0]}, {io.out[0]}, io.layer.name);
    return;
  }
  auto elem = elem_from_ov(*type);
  if (!elem) fail(ErrorKind::Unsupported, g.where(io.layer), "output_type \"" + *type + "\"");
  ir::Edge* shape = g.node("Shape", {io.in[0]}, io.layer.name + "/i64");
  g.node_to("Cast", {shape}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(*elem)));
}

// An empty order reverses the axes, as ONNX's Transpose does without `perm`.
void map_transpose(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  std::vector<int64_t> order = const_ints(g, io, 1, "the order input");
  ir::Node* n = g.node_to("Transpose", {io.in[0]}, {io.out[0]}, io.layer.name);
  if (!order.empty()) n->attributes.push_back(ints_attr("perm", order));
}

// Pad-1/-12 as ONNX's Pad, whose pads are pads_begin then pads_end in one input. Modes
// constant, edge and reflect agree for pads >= 0; what edge and reflect do with the
// cropping of negative pads (Pad-12) is not ONNX's to say, so those need constant pads
// that are not negative. symmetric has no ONNX form.
void map_pad(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 4);
  const XmlLayer& l = io.layer;
  const std::string mode = enum_data(l, "pad_mode", "constant");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    fail(ErrorKind::Unsupported, g.where(l), "pad_mode \"" + mode + "\"");
  if (mode != "constant")
    for (size_t k : {1, 2})
      for (int64_t v : const_ints(g, io, k, "pads of edge or reflect mode"))
        if (v < 0) fail(ErrorKind::Unsupported, g.where(l), mode + " mode with negative pads");
  // Constant pads stay a constant, so that whoever reads the ONNX sees their values.
  ir::Edge* pads = nullptr;
  if (GraphLowering::constant_value(io.in[1]) && GraphLowering::constant_value(io.in[2])) {
    std::vector<int64_t> both = const_ints(g, io, 1, "pads_begin");
    for (int64_t v : const_ints(g, io, 2, "pads_end")) both.push_back(v);
    pads = g.constant(i64_tensor(both), l.name + "/pads");
  } else {
    pads = g.node("Concat",
                  {g.as_int64(io.in[1], l.name + "/begin"), g.as_int64(io.in[2], l.name + "/end")},
                  l.name + "/pads", int_attr("axis", 0));
  }
  std::vector<ir::Edge*> ins{io.in[0], pads};
  if (io.in.size() == 4) ins.push_back(io.in[3]);
  g.node_to("Pad", ins, {io.out[0]}, l.name)->attributes.push_back(string_attr("mode", mode));
}

// Tile-1 pads the shorter of data's rank and repeats' length with leading 1s; ONNX's Tile
// wants them equal, so they must be (by the ports' dims).
void map_tile(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const XmlLayer& l = io.layer;
  const ir::Shape& data = l.inputs.at(0).shape;
  const ir::Shape& repeats = l.inputs.at(1).shape;
  if (!data.rank_known || repeats.dims.size() != 1 || !repeats.dims[0].is_known() ||
      repeats.dims[0].value != static_cast<int64_t>(data.dims.size()))
    fail(ErrorKind::Unsupported, g.where(l),
         "Tile whose repeats are not as long as data's rank (ONNX pads neither)");
  g.node_to("Tile", {io.in[0], g.as_int64(io.in[1], l.name + "/repeats")}, {io.out[0]}, l.name);
}

// Slice-8 is (data, start, stop, step[, axes]); ONNX's is (data, starts, ends, axes, steps).
void map_slice(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 4, 5);
  const std::string& name = io.layer.name;
  std::vector<ir::Edge*> ins{io.in[0], g.as_int64(io.in[1], name + "/start"),
                             g.as_int64(io.in[2], name + "/stop"),
                             io.in.size() == 5 ? g.as_int64(io.in[4], name + "/axes") : nullptr,
                             g.as_int64(io.in[3], name + "/step")};
  g.node_to("Slice", ins, {io.out[0]}, name);
}

// Range-4 converts its scalars to output_type; ONNX's Range wants them already alike.
void map_range(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  std::vector<ir::Edge*> ins = io.in;
  if (const std::string* type = io.layer.attr("output_type")) {
    auto elem = elem_from_ov(*type);
    if (!elem) fail(ErrorKind::Unsupported, g.where(io.layer), "output_type \"" + *type + "\"");
    const char* names[3] = {"/start", "/stop", "/step"};
    for (size_t k = 0; k < 3; ++k) {
      const ir::Type& t = ins[k]->type;
      if (t.kind == ir::Type::Kind::Tensor && t.elem == *elem) continue;
      ins[k] = g.node("Cast", {ins[k]}, io.layer.name + names[k],
                      int_attr("to", static_cast<int64_t>(*elem)));
    }
  }
  g.node_to("Range", ins, {io.out[0]}, io.layer.name);
}

// ONNX's Flatten reshapes to [d0 * .. * d(axis-1), the rest]: the first is written as 1
// (axis 0), as 0 with special_zero (axis 1: keep d0), or as its value when those dims are
// known.
void write_flatten(NetWriter& w, const ir::Node& n) {
  const ir::Edge* x = n.inputs.at(0);
  const ir::Shape& s = x->type.shape;
  int64_t axis = int_attr_or(n, "axis", 1);
  if (axis < 0 && s.rank_known) axis += static_cast<int64_t>(s.dims.size());
  if (axis < 0) fail(ErrorKind::Unsupported, w.where(n), "Flatten of unknown rank");
  int64_t head = axis == 1 ? 0 : 1;
  for (int64_t i = 0; axis > 1 && i < axis; ++i) {
    if (!s.rank_known || i >= static_cast<int64_t>(s.dims.size()) || !s.dims[i].is_known())
      fail(ErrorKind::Unsupported, w.where(n),
           "Flatten at axis " + std::to_string(axis) + " of dims not all known");
    head *= s.dims[i].value;
  }
  std::string name = layer_name(n);
  w.op("Reshape", "opset1", name, {w.source(x), w.const_i64({head, -1}, name + "/shape")},
       out0(w, n), {{"special_zero", axis == 1 ? "true" : "false"}});
}

void write_identity(NetWriter& w, const ir::Node& n) {
  w.bind(out0(w, n), w.source(n.inputs.at(0)));
}

void write_constant(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("value");
  Tensor t;
  if (a && a->kind == ir::Attribute::Kind::Tensor)
    t = a->t;
  else if ((a = n.attr("value_float")))
    t = Tensor::from_vector(ElemType::Float, {}, std::vector<float>{a->f});
  else if ((a = n.attr("value_int")))
    t = Tensor::scalar_i64(a->i);
  else if ((a = n.attr("value_ints")))
    t = Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(a->ints.size())}, a->ints);
  else if ((a = n.attr("value_floats")))
    t = Tensor::from_vector(ElemType::Float, {static_cast<int64_t>(a->floats.size())}, a->floats);
  else
    fail(ErrorKind::Unsupported, w.where(n), "a Constant without a tensor, float or int value");
  w.bind(out0(w, n), w.constant(t, out0(w, n)->name));
}

void write_reshape(NetWriter& w, const ir::Node& n) {
  bool allowzero = int_attr_or(n, "allowzero", 0) != 0;
  w.op("Reshape", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"special_zero", allowzero ? "false" : "true"}});
}

void write_squeeze_like(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  if (auto axes = axes_of(w, n, 1, "axes"))
    ins.push_back(*axes);
  else if (n.op_type == "Unsqueeze")
    fail(ErrorKind::InvalidModel, w.where(n), "Unsqueeze without axes");
  w.op(n.op_type, "opset1", layer_name(n), ins, out0(w, n));
}

void write_concat(NetWriter& w, const ir::Node& n) {
  w.op("Concat", "opset1", layer_name(n), sources(w, n), out0(w, n),
       {{"axis", std::to_string(int_attr_or(n, "axis", 0))}});
}

// Shape's start and end (opset 15) slice the shape vector.
void write_shape(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* start = n.attr("start");
  const ir::Attribute* end = n.attr("end");
  if (!start && !end) {
    w.op("ShapeOf", "opset3", layer_name(n), sources(w, n), out0(w, n), {{"output_type", "i64"}});
    return;
  }
  std::string name = layer_name(n);
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", sources(w, n), nullptr, {{"output_type", "i64"}});
  w.op("Slice", "opset8", name,
       {shape, w.const_i64({start ? start->i : 0}, name + "/start"),
        w.const_i64({end ? end->i : std::numeric_limits<int64_t>::max()}, name + "/stop"),
        w.const_i64({1}, name + "/step")},
       out0(w, n));
}

// Size is the product of the shape.
void write_size(NetWriter& w, const ir::Node& n) {
  std::string name = layer_name(n);
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", sources(w, n), nullptr, {{"output_type", "i64"}});
  w.op("ReduceProd", "opset1", name, {shape, w.const_i64({0}, name + "/axes")}, out0(w, n),
       {{"keep_dims", "false"}});
}

// ConstantOfShape broadcasts its one-element value (0.0f by default) to the shape.
void write_constant_of_shape(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("value");
  Tensor value = a ? a->t : Tensor::zeros(ElemType::Float, {1});
  if (value.numel() != 1)
    fail(ErrorKind::InvalidModel, w.where(n), "the value must hold one element");
  Tensor scalar(value.type(), Dims{});
  std::memcpy(scalar.raw(), value.raw(), value.nbytes());
  std::string name = layer_name(n);
  w.op("Broadcast", "opset3", name, {w.constant(scalar, name + "/value"), w.source(n.inputs.at(0))},
       out0(w, n), {{"mode", "numpy"}});
}

// Split with lengths (an input from opset 13, an attribute before) is VariadicSplit;
// without, it is Split into as many equal parts as it has outputs.
void write_split(NetWriter& w, const ir::Node& n) {
  std::string name = layer_name(n);
  XmlLayer l;
  l.name = name;
  l.version = "opset1";
  std::vector<PortRef> ins{
      w.source(n.inputs.at(0)),
      w.constant(Tensor::scalar_i64(int_attr_or(n, "axis", 0)), name + "/axis")};
  if (auto lengths = axes_of(w, n, 1, "split")) {
    l.type = "VariadicSplit";
    ins.push_back(*lengths);
  } else {
    l.type = "Split";
    l.data = {{"num_splits", std::to_string(n.outputs.size())}};
  }
  for (const ir::Edge* e : n.outputs) {
    if (!e) fail(ErrorKind::Unsupported, w.where(n), "Split with an omitted output");
    l.outputs.push_back(NetWriter::port_of(e));
  }
  int64_t id = w.add(std::move(l), ins);
  for (size_t k = 0; k < n.outputs.size(); ++k)
    w.bind(n.outputs[k], {id, static_cast<int64_t>(ins.size() + k)});
}

void write_transpose(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* perm = n.attr("perm");
  PortRef order = w.const_i64(perm ? perm->ints : std::vector<int64_t>(), layer_name(n) + "/order");
  w.op("Transpose", "opset1", layer_name(n), {w.source(n.inputs.at(0)), order}, out0(w, n));
}

// ONNX Slice (opset 10+) is (data, starts, ends[, axes[, steps]]); Slice-8 is
// (data, start, stop, step[, axes]) with a step required: ones shaped like `starts`.
void write_slice(NetWriter& w, const ir::Node& n) {
  if (w.opset() < 10) fail(ErrorKind::Unsupported, w.where(n), "Slice before opset 10");
  std::string name = layer_name(n);
  auto input = [&](size_t k) { return n.inputs.size() > k ? n.inputs[k] : nullptr; };
  PortRef starts = w.source(input(1));
  PortRef step;
  if (input(4)) {
    step = w.source(input(4));
  } else {
    PortRef len =
        w.op("ShapeOf", "opset3", name + "/len", {starts}, nullptr, {{"output_type", "i64"}});
    step = w.op("Broadcast", "opset3", name + "/step", {w.const_i64({1}, name + "/one"), len},
                nullptr, {{"mode", "numpy"}});
  }
  std::vector<PortRef> ins{w.source(n.inputs.at(0)), starts, w.source(input(2)), step};
  if (input(3)) ins.push_back(w.source(input(3)));
  w.op("Slice", "opset8", name, ins, out0(w, n));
}

// Range-4 names its output type; with the type unknown, Range-1 takes it from its inputs,
// which ONNX requires to be alike anyway.
void write_range(NetWriter& w, const ir::Node& n) {
  const ir::Type& t = n.inputs.at(0)->type;
  std::string_view type =
      t.kind == ir::Type::Kind::Tensor ? ov_elem_name(t.elem) : std::string_view();
  if (type.empty()) {
    w.op("Range", "opset1", layer_name(n), sources(w, n), out0(w, n));
    return;
  }
  w.op("Range", "opset4", layer_name(n), sources(w, n), out0(w, n),
       {{"output_type", std::string(type)}});
}

// ONNX's Pad (opset 11+: pads, constant_value and axes as inputs; before, attributes) as
// Pad-12, which takes pads_begin and pads_end apart: halves of a constant pads, or of a
// Split at run time. wrap mode and axes have no OpenVINO form; edge and reflect need
// constant pads that are not negative (map_pad says why).
void write_pad(NetWriter& w, const ir::Node& n) {
  const std::string name = layer_name(n);
  const ir::Attribute* mode_attr = n.attr("mode");
  const std::string mode = mode_attr ? mode_attr->s : "constant";
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    fail(ErrorKind::Unsupported, w.where(n), "Pad in " + mode + " mode");
  if (n.inputs.size() > 3 && n.inputs[3]) fail(ErrorKind::Unsupported, w.where(n), "Pad with axes");
  const ir::Edge* pads_in = n.inputs.size() > 1 ? n.inputs[1] : nullptr;
  std::optional<std::vector<int64_t>> pads;
  if (const ir::Attribute* a = n.attr("pads")) pads = a->ints;  // Pad-2
  if (pads_in && pads_in->data && pads_in->data->type() == ElemType::Int64)
    pads = std::vector<int64_t>(pads_in->data->data<int64_t>(),
                                pads_in->data->data<int64_t>() + pads_in->data->numel());
  if (mode != "constant" &&
      (!pads || std::any_of(pads->begin(), pads->end(), [](int64_t v) { return v < 0; })))
    fail(ErrorKind::Unsupported, w.where(n),
         "Pad in " + mode + " mode needs constant pads that are not negative");
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  if (pads) {
    const auto half = static_cast<long>(pads->size() / 2);
    ins.push_back(w.const_i64({pads->begin(), pads->begin() + half}, name + "/pads_begin"));
    ins.push_back(w.const_i64({pads->begin() + half, pads->end()}, name + "/pads_end"));
  } else if (pads_in) {
    XmlLayer split;
    split.name = name + "/pads";
    split.type = "Split";
    split.version = "opset1";
    split.data = {{"num_splits", "2"}};
    split.outputs = {NetWriter::port_of(nullptr), NetWriter::port_of(nullptr)};
    const int64_t id =
        w.add(std::move(split),
              {w.source(pads_in), w.constant(Tensor::scalar_i64(0), name + "/pads_axis")});
    ins.push_back({id, 2});
    ins.push_back({id, 3});
  } else {
    fail(ErrorKind::InvalidModel, w.where(n), "Pad without pads");
  }
  if (mode == "constant") {
    if (n.inputs.size() > 2 && n.inputs[2])
      ins.push_back(w.source(n.inputs[2]));
    else if (const ir::Attribute* v = n.attr("value"); v && v->f != 0)  // Pad-2
      ins.push_back(
          w.op("ConvertLike", "opset1", name + "/value",
               {w.constant(Tensor::from_vector(ElemType::Float, {}, std::vector<float>{v->f}),
                           name + "/value_f32"),
                ins[0]},
               nullptr));
  }
  w.op("Pad", "opset12", name, ins, out0(w, n), {{"pad_mode", mode}});
}

void write_tile(NetWriter& w, const ir::Node& n) {
  w.op("Tile", "opset1", layer_name(n), sources(w, n), out0(w, n));
}

}  // namespace

OpFamily shape_family() {
  return {{{"Reshape", "1", map_reshape},
           {"Squeeze", "1", map_axes_op},
           {"Unsqueeze", "1", map_axes_op},
           {"Concat", "1", map_concat},
           {"ShapeOf", "1 3", map_shape_of},
           {"Split", "1", map_split},
           {"VariadicSplit", "1", map_split},
           {"Transpose", "1", map_transpose},
           {"Slice", "8", map_slice},
           {"Tile", "1", map_tile},
           {"Range", "1 4", map_range},
           {"Pad", "1 12", map_pad},
           {"StridedSlice", "1", map_strided_slice}},
          {{"Reshape", "Reshape-1", write_reshape},
           {"Flatten", "Reshape-1", write_flatten},
           {"Squeeze", "Squeeze-1", write_squeeze_like},
           {"Unsqueeze", "Unsqueeze-1", write_squeeze_like},
           {"Concat", "Concat-1", write_concat},
           {"Shape", "ShapeOf-3 Slice-8", write_shape},
           {"Size", "ShapeOf-3 ReduceProd-1", write_size},
           {"Split", "Split-1 VariadicSplit-1", write_split},
           {"Transpose", "Transpose-1", write_transpose},
           {"Slice", "Slice-8", write_slice},
           {"Tile", "Tile-1", write_tile},
           {"Range", "Range-1 Range-4", write_range},
           {"Pad", "Pad-12", write_pad},
           {"Identity", "", write_identity},
           {"Constant", "Const", write_constant},
           {"ConstantOfShape", "Broadcast-3", write_constant_of_shape}}};
}

}  // namespace bough::openvino
