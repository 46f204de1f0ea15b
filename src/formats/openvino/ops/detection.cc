// The detection operators of SSD and YOLO models, both ways.
//
// PriorBox-1/8, PriorBoxClustered-1 and DetectionOutput-1/8 have no ONNX form: they become
// nodes of the org.openvinotoolkit domain exactly as OpenVINO's ONNX frontend reads them
// (src/frontends/onnx/frontend/src/op/org.openvinotoolkit/prior_box.cpp and
// detection_output.cpp), which bough runs with kernels of its own (src/ops/openvino/), so
// that IR -> ONNX -> OpenVINO keeps working:
// - PriorBox and PriorBoxClustered read the 4-D feature map and image, whose dims 2 and 3
//   the frontend takes (ShapeOf, StridedSlice 2:4), and give [1, 2, L]. The IR's inputs are
//   those [H, W] values; they are read as the shape of a one-byte ConstantOfShape, and the
//   output is squeezed to the IR's [2, L]. Written back as ShapeOf and StridedSlice around
//   PriorBox-8 (PriorBox-1 is PriorBox-8 with min_max_aspect_ratios_order true) and an
//   Unsqueeze, as the frontend builds it.
// - DetectionOutput-1 is DetectionOutput-8 whose class count is the num_classes attribute,
//   which must then agree with the inputs' dims. Every attribute is written out: the
//   frontend's defaults differ from the IR's (normalized 1, keep_top_k 1, clip 0).
// RegionYolo-1 and ReorgYolo-1 are rearrangements and elementwise functions, read as ONNX
// operators (and so written back as those):
// - RegionYolo splits each of the `regions` (num, or the mask's length without do_softmax)
//   groups of coords + classes + 1 channels into x, y (sigmoid), the other coords (as they
//   are), the objectness (sigmoid) and the class scores (softmax over the classes with
//   do_softmax, sigmoid without), as OpenVINO's reference (region_yolo.hpp) does; with
//   do_softmax the output is flattened from axis to end_axis.
// - ReorgYolo reads the input [N, C, H, W] as [N, C / s², H * s, W * s] and moves each s x s
//   block to the channels (reference/reorg_yolo.cpp): a Reshape, a SpaceToDepth and a Reshape
//   to [N, C * s², H / s, W / s].
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// A node of the org.openvinotoolkit domain.
ir::Node* ov_node(GraphLowering& g, const std::string& op, std::vector<ir::Edge*> ins,
                  ir::Edge* out, const std::string& name) {
  ir::Node* n = g.node_to(op, std::move(ins), {out}, name);
  n->domain = kOpenVinoDomain;
  return n;
}

ir::Edge* new_edge(GraphLowering& g, const std::string& name) {
  return g.graph()->new_edge(g.model().unique_name(name), ir::Edge::Origin::NodeOutput);
}

// Whether constant `e` holds exactly `v` (an absent optional input when `e` is null and
// `absent_ok`).
bool holds(const ir::Edge* e, std::vector<int64_t> v, bool absent_ok) {
  if (!e) return absent_ok;
  const Tensor* t = GraphLowering::constant_value(e);
  if (!t || t->numel() != static_cast<int64_t>(v.size())) return false;
  for (size_t i = 0; i < v.size(); ++i)
    if ((t->type() == ElemType::Int64   ? t->data<int64_t>()[i]
         : t->type() == ElemType::Int32 ? t->data<int32_t>()[i]
                                        : -1) != v[i])
      return false;
  return true;
}

const ir::Node* producer(const ir::Edge* e, const char* op) {
  return e && e->producer && e->producer->op_type == op && e->producer->domain.empty() ? e->producer
                                                                                       : nullptr;
}

// The tensor x when `hw` is dims 2:4 of its shape (ShapeOf and StridedSlice, as converters
// write what feeds a PriorBox), else null.
ir::Edge* shape_source(ir::Edge* hw) {
  const ir::Node* slice = producer(hw, "Slice");
  if (!slice || slice->inputs.size() < 3 || !holds(slice->inputs[1], {2}, false) ||
      !holds(slice->inputs[2], {4}, false) ||
      !holds(slice->inputs.size() > 3 ? slice->inputs[3] : nullptr, {0}, true) ||
      !holds(slice->inputs.size() > 4 ? slice->inputs[4] : nullptr, {1}, true))
    return nullptr;
  const ir::Edge* shape = slice->inputs[0];
  if (const ir::Node* cast = producer(shape, "Cast")) shape = cast->inputs.at(0);
  const ir::Node* shape_of = producer(shape, "Shape");
  if (!shape_of || !shape_of->attributes.empty() || shape_of->inputs.size() != 1) return nullptr;
  const ir::Type& t = shape_of->inputs[0]->type;
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known || t.shape.dims.size() != 4)
    return nullptr;
  return shape_of->inputs[0];
}

// A 4-D tensor whose dims 2 and 3 are the [H, W] values `hw`: what the frontend's PriorBox
// reads the grid from. The tensor whose shape they came from when there is one, else
// [1, 1, H, W] bytes.
ir::Edge* grid_of(GraphLowering& g, ir::Edge* hw, const std::string& name) {
  if (ir::Edge* x = shape_source(hw)) return x;
  ir::Edge* shape = g.node(
      "Concat", {g.constant(i64_tensor({1, 1}), name + "/lead"), g.as_int64(hw, name + "/hw")},
      name + "/shape", int_attr("axis", 0));
  ir::Attribute value;
  value.name = "value";
  value.kind = ir::Attribute::Kind::Tensor;
  value.t = Tensor::zeros(ElemType::UInt8, {1});
  return g.node("ConstantOfShape", {shape}, name, std::move(value));
}

// The checks OpenVINO's prior_box::validate::inputs_et and shape_infer make of the two
// inputs: integer values, 1-D.
void check_prior_inputs(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  for (size_t i = 0; i < 2; ++i) {
    const ir::Type& t = io.in[i]->type;
    if (t.kind != ir::Type::Kind::Tensor) continue;
    if (t.elem != ElemType::Undefined && !is_integer_type(t.elem))
      fail(ErrorKind::InvalidModel, g.where(io.layer),
           std::string(i == 0 ? "output size" : "image") + " input must be of an integer type");
    if (t.shape.rank_known && t.shape.dims.size() != 1)
      fail(ErrorKind::InvalidModel, g.where(io.layer), "the size inputs must be 1-D");
  }
}

void check_variance(GraphLowering& g, const XmlLayer& l, const std::vector<float>& v) {
  if (v.size() != 0 && v.size() != 1 && v.size() != 4)
    fail(ErrorKind::InvalidModel, g.where(l),
         "variance must hold 0, 1 or 4 values, not " + std::to_string(v.size()));
}

// The grid node `op` on `io`'s [H, W] inputs, squeezed to the IR's [2, L].
ir::Node* map_grid_op(GraphLowering& g, const LayerIO& io, const std::string& op) {
  const std::string& name = io.layer.name;
  ir::Edge* priors = new_edge(g, name + "/priors");
  ir::Node* n = ov_node(
      g, op, {grid_of(g, io.in[0], name + "/feature_map"), grid_of(g, io.in[1], name + "/image")},
      priors, name + "/priors");
  g.node_to("Squeeze", {priors, g.constant(i64_tensor({0}), name + "/axis")}, {io.out[0]}, name);
  return n;
}

void add_floats(ir::Node* n, GraphLowering& g, const XmlLayer& l, const char* key) {
  std::vector<float> v = float_list(g, l, key);
  if (!v.empty()) n->attributes.push_back(floats_attr(key, std::move(v)));
}

void map_prior_box(GraphLowering& g, const LayerIO& io) {
  check_prior_inputs(g, io);
  const XmlLayer& l = io.layer;
  check_variance(g, l, float_list(g, l, "variance"));
  for (float d : float_list(g, l, "density"))
    if (static_cast<int64_t>(d) < 1)
      fail(ErrorKind::InvalidModel, g.where(l), "density values must be at least 1");
  if (!l.attr("offset")) fail(ErrorKind::InvalidModel, g.where(l), "offset is required");
  ir::Node* n = map_grid_op(g, io, "PriorBox");
  for (const char* key :
       {"min_size", "max_size", "aspect_ratio", "variance", "fixed_ratio", "fixed_size", "density"})
    add_floats(n, g, l, key);
  n->attributes.push_back(int_attr("flip", flag(l, "flip", false)));
  n->attributes.push_back(int_attr("clip", flag(l, "clip", false)));
  n->attributes.push_back(int_attr("scale_all_sizes", flag(l, "scale_all_sizes", true)));
  // PriorBox-1 orders the boxes as PriorBox-8 does by default.
  n->attributes.push_back(
      int_attr("min_max_aspect_ratios_order",
               op_version(l) < 8 || flag(l, "min_max_aspect_ratios_order", true)));
  n->attributes.push_back(float_attr("step", static_cast<float>(float_data(g, l, "step", 0))));
  n->attributes.push_back(float_attr("offset", static_cast<float>(float_data(g, l, "offset", 0))));
}

void map_prior_box_clustered(GraphLowering& g, const LayerIO& io) {
  check_prior_inputs(g, io);
  const XmlLayer& l = io.layer;
  const std::vector<float> widths = float_list(g, l, "width");
  const std::vector<float> heights = float_list(g, l, "height");
  if (widths.size() != heights.size())
    fail(ErrorKind::InvalidModel, g.where(l),
         "Size of heights vector: " + std::to_string(heights.size()) +
             " doesn't match size of widths vector: " + std::to_string(widths.size()));
  check_variance(g, l, float_list(g, l, "variance"));
  ir::Node* n = map_grid_op(g, io, "PriorBoxClustered");
  n->attributes.push_back(floats_attr("width", widths));
  n->attributes.push_back(floats_attr("height", heights));
  add_floats(n, g, l, "variance");
  n->attributes.push_back(int_attr("clip", flag(l, "clip", true)));
  for (const char* key : {"step", "step_w", "step_h", "offset"})
    n->attributes.push_back(float_attr(key, static_cast<float>(float_data(g, l, key, 0))));
}

// A known dim of port `p` of `l`'s inputs, else -1.
int64_t input_dim(const XmlLayer& l, size_t p, size_t d) {
  if (p >= l.inputs.size()) return -1;
  const ir::Shape& s = l.inputs[p].shape;
  return s.rank_known && d < s.dims.size() && s.dims[d].is_known() ? s.dims[d].value : -1;
}

void map_detection_output(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if ((io.in.size() != 3 && io.in.size() != 5) || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(l),
         "DetectionOutput takes 3 or 5 inputs and gives one output");
  const std::string code =
      l.attr("code_type") ? *l.attr("code_type") : "caffe.PriorBoxParameter.CORNER";
  if (code != "caffe.PriorBoxParameter.CORNER" && code != "caffe.PriorBoxParameter.CENTER_SIZE")
    fail(ErrorKind::InvalidModel, g.where(l),
         "code_type must be either \"caffe.PriorBoxParameter.CORNER\" or "
         "\"caffe.PriorBoxParameter.CENTER_SIZE\"");
  const std::vector<int64_t> keep_top_k = int_list(g, l, "keep_top_k");
  if (keep_top_k.empty()) fail(ErrorKind::InvalidModel, g.where(l), "keep_top_k is required");
  if (!l.attr("nms_threshold"))
    fail(ErrorKind::InvalidModel, g.where(l), "nms_threshold is required");
  const bool normalized = flag(l, "normalized", false);
  if (op_version(l) < 8) {
    // DetectionOutput-1 takes the class count from its attribute; OpenVINO's shape inference
    // then requires the class scores to hold that many per prior.
    const int64_t classes = int_data(g, l, "num_classes", 0);
    if (classes <= 0)
      fail(ErrorKind::InvalidModel, g.where(l), "Number of classes must be greater than zero");
    const int64_t proposals = input_dim(l, 2, 2), scores = input_dim(l, 1, 1);
    const int64_t prior_size = normalized ? 4 : 5;
    if (proposals > 0 && scores >= 0 && proposals % prior_size == 0 &&
        scores != proposals / prior_size * classes)
      fail(ErrorKind::InvalidModel, g.where(l),
           "Class predictions' second dimension must be equal to num_prior_boxes * num_classes (" +
               std::to_string(proposals / prior_size * classes) +
               "). Current value is: " + std::to_string(scores) + ".");
  }
  ir::Node* n = ov_node(g, "DetectionOutput", io.in, io.out[0], l.name);
  auto add_int = [&](const char* key, int64_t v) { n->attributes.push_back(int_attr(key, v)); };
  auto add_float = [&](const char* key) {
    n->attributes.push_back(float_attr(key, static_cast<float>(float_data(g, l, key, 0))));
  };
  add_int("background_label_id", int_data(g, l, "background_label_id", 0));
  add_int("top_k", int_data(g, l, "top_k", -1));
  add_int("variance_encoded_in_target", flag(l, "variance_encoded_in_target", false));
  add_int("keep_top_k", keep_top_k[0]);
  n->attributes.push_back(string_attr("code_type", code));
  add_int("share_location", flag(l, "share_location", true));
  add_float("nms_threshold");
  add_float("confidence_threshold");
  add_int("clip_after_nms", flag(l, "clip_after_nms", false));
  add_int("clip_before_nms", flag(l, "clip_before_nms", false));
  add_int("decrease_label_id", flag(l, "decrease_label_id", false));
  add_int("normalized", normalized);
  add_int("input_height", int_data(g, l, "input_height", 1));
  add_int("input_width", int_data(g, l, "input_width", 1));
  add_float("objectness_score");
}

void map_region_yolo(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  const int64_t coords = int_data(g, l, "coords", 4);
  const int64_t classes = int_data(g, l, "classes", 0);
  const bool softmax = flag(l, "do_softmax", true);
  const int64_t regions =
      softmax ? int_data(g, l, "num", 0) : static_cast<int64_t>(int_list(g, l, "mask").size());
  const ir::Shape& x = l.inputs.at(0).shape;
  if (x.rank_known && x.dims.size() != 4)
    fail(ErrorKind::InvalidModel, g.where(l), "Input must be a tensor of rank 4");
  if (coords < 2 || classes < 0 || regions < 1)
    fail(ErrorKind::Unsupported, g.where(l),
         "RegionYolo with coords below 2, classes below 0 or no regions");
  const int64_t entries = coords + classes + 1;
  const int64_t channels = input_dim(l, 0, 1);
  if (channels >= 0 && channels != regions * entries)
    fail(ErrorKind::Unsupported, g.where(l),
         "RegionYolo of " + std::to_string(channels) +
             " channels, not regions * (coords + classes + 1) = " +
             std::to_string(regions * entries));
  // [N, regions, entries, H * W]
  ir::Edge* r = g.node(
      "Reshape", {io.in[0], g.constant(i64_tensor({0, regions, entries, -1}), name + "/split")},
      name + "/regions");
  auto entries_of = [&](int64_t from, int64_t to, const std::string& what) {
    return g.node("Slice",
                  {r, g.constant(i64_tensor({from}), name + "/" + what + "_from"),
                   g.constant(i64_tensor({to}), name + "/" + what + "_to"),
                   g.constant(i64_tensor({2}), name + "/" + what + "_axis")},
                  name + "/" + what);
  };
  std::vector<ir::Edge*> parts{g.node("Sigmoid", {entries_of(0, 2, "xy")}, name + "/xy_sigmoid")};
  if (coords > 2) parts.push_back(entries_of(2, coords, "wh"));
  if (softmax) {
    parts.push_back(g.node("Sigmoid", {entries_of(coords, coords + 1, "objectness")},
                           name + "/objectness_sigmoid"));
    if (classes > 0)
      parts.push_back(g.node("Softmax", {entries_of(coords + 1, entries, "classes")},
                             name + "/classes_softmax", int_attr("axis", 2)));
  } else {
    parts.push_back(
        g.node("Sigmoid", {entries_of(coords, entries, "scores")}, name + "/scores_sigmoid"));
  }
  ir::Edge* joined = g.node("Concat", parts, name + "/joined", int_attr("axis", 2));
  ir::Edge* x_shape = g.node("Shape", {io.in[0]}, name + "/shape");
  if (!softmax) {
    g.node_to("Reshape", {joined, x_shape}, {io.out[0]}, name);
    return;
  }
  int64_t axis = int_data(g, l, "axis", 1), end_axis = int_data(g, l, "end_axis", 3);
  if (axis < 0) axis += 4;
  if (end_axis < 0) end_axis += 4;
  if (axis < 0 || axis > 3 || end_axis < 0 || end_axis > 3)
    fail(ErrorKind::InvalidModel, g.where(l), "axis and end_axis must be in [-4, 3]");
  // Flattened from axis to end_axis: known dims give the shape; an unknown one, only when
  // the flattening runs to the last axis ([0, ..., -1] of the input's shape).
  std::vector<int64_t> flat;
  bool known = true;
  for (int64_t d = 0; d < 4; ++d) {
    const int64_t v = input_dim(l, 0, static_cast<size_t>(d));
    known = known && v >= 0;
    if (d <= axis || d > end_axis)
      flat.push_back(v);
    else
      flat.back() *= v;
  }
  if (known) {
    g.node_to("Reshape", {joined, g.constant(i64_tensor(flat), name + "/flat_shape")}, {io.out[0]},
              name);
    return;
  }
  if (end_axis != 3)
    fail(ErrorKind::Unsupported, g.where(l),
         "RegionYolo flattening to end_axis " + std::to_string(end_axis) + " of unknown dims");
  std::vector<int64_t> target(static_cast<size_t>(axis), 0);
  target.push_back(-1);
  g.node_to("Reshape",
            {g.node("Reshape", {joined, x_shape}, name + "/unsplit"),
             g.constant(i64_tensor(target), name + "/flat_shape")},
            {io.out[0]}, name);
}

void map_reorg_yolo(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  const std::vector<int64_t> strides = int_list(g, l, "stride");
  if (strides.empty() || strides[0] <= 0)
    fail(ErrorKind::InvalidModel, g.where(l), "stride must be a positive integer");
  const int64_t s = strides[0];
  const ir::Shape& x = l.inputs.at(0).shape;
  if (x.rank_known && x.dims.size() != 4)
    fail(ErrorKind::InvalidModel, g.where(l), "[N, C, H, W] input shape is required.");
  const int64_t c = input_dim(l, 0, 1);
  if (c >= 0 && c < s * s)
    fail(ErrorKind::InvalidModel, g.where(l),
         "For [N, C, H, W] input shape, C >= (stride*stride) is required.");
  for (size_t d : {2, 3})
    if (input_dim(l, 0, d) >= 0 && input_dim(l, 0, d) % s != 0)
      fail(ErrorKind::InvalidModel, g.where(l),
           "For [N, C, H, W] input shape, H and W should be divisible by stride.");
  // OpenVINO's reference reads channel groups past the input when C is not a multiple of s².
  if (c >= 0 && c % (s * s) != 0)
    fail(ErrorKind::Unsupported, g.where(l), "ReorgYolo of channels not a multiple of stride²");
  ir::Edge* shape = g.node("Shape", {io.in[0]}, name + "/shape");
  ir::Edge* depth = g.constant(i64_tensor({1, s * s, 1, 1}), name + "/depth_factor");
  ir::Edge* space = g.constant(i64_tensor({1, 1, s, s}), name + "/space_factor");
  // [N, C / s², H * s, W * s], as the reference reads the input.
  ir::Edge* wide_shape =
      g.node("Mul", {g.node("Div", {shape, depth}, name + "/fewer_channels"), space},
             name + "/wide_shape");
  ir::Edge* wide = g.node("Reshape", {io.in[0], wide_shape}, name + "/wide");
  ir::Edge* blocks = g.node("SpaceToDepth", {wide}, name + "/blocks", int_attr("blocksize", s));
  ir::Edge* out_shape = g.node(
      "Div", {g.node("Mul", {shape, depth}, name + "/more_channels"), space}, name + "/out_shape");
  g.node_to("Reshape", {blocks, out_shape}, {io.out[0]}, name);
}

// Writing: the org.openvinotoolkit nodes as OpenVINO layers.

std::string floats_text(const std::vector<float>& v) {
  std::string s;
  for (float x : v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(x));
    s += (s.empty() ? "" : ",") + std::string(buf);
  }
  return s;
}

std::string float_text(const ir::Node& n, const char* key, float fallback) {
  const ir::Attribute* a = n.attr(key);
  return floats_text({a ? a->f : fallback});
}

std::string floats_of(const ir::Node& n, const char* key) {
  const ir::Attribute* a = n.attr(key);
  return a ? floats_text(a->floats) : "";
}

std::string bool_text(const ir::Node& n, const char* key, int64_t fallback) {
  return int_attr_or(n, key, fallback) != 0 ? "true" : "false";
}

// Dims 2 and 3 of `e`'s shape: ShapeOf and StridedSlice 2:4, as the frontend reads them.
PortRef spatial_dims(NetWriter& w, const ir::Edge* e, const std::string& name) {
  PortRef shape =
      w.op("ShapeOf", "opset3", name + "/shape", {w.source(e)}, nullptr, {{"output_type", "i64"}});
  PortRef hw = w.op("StridedSlice", "opset1", name,
                    {shape, w.const_i64({2}, name + "/begin"), w.const_i64({4}, name + "/end"),
                     w.const_i64({1}, name + "/stride")},
                    nullptr,
                    {{"begin_mask", "0"},
                     {"end_mask", "0"},
                     {"new_axis_mask", ""},
                     {"shrink_axis_mask", ""},
                     {"ellipsis_mask", ""}});
  XmlPort& p = w.output_port(hw);
  p.elem = ElemType::Int64;
  p.shape = ir::Shape::of({ir::Dim::known(2)});
  return hw;
}

// `type` (of `version`, with `data`) on the grid of n's two inputs, unsqueezed to [1, 2, L].
void write_grid_op(NetWriter& w, const ir::Node& n, const std::string& type,
                   const std::string& version, std::map<std::string, std::string> data) {
  if (n.inputs.size() != 2 || !n.inputs[0] || !n.inputs[1])
    fail(ErrorKind::InvalidModel, w.where(n), type + " takes a feature map and an image");
  const std::string name = layer_name(n);
  PortRef priors = w.op(type, version, name + "/priors",
                        {spatial_dims(w, n.inputs[0], name + "/grid"),
                         spatial_dims(w, n.inputs[1], name + "/image_size")},
                        nullptr, std::move(data));
  XmlPort& p = w.output_port(priors);
  p.elem = ElemType::Float;
  p.shape = ir::Shape::of({ir::Dim::known(2), ir::Dim::unknown()});
  w.op("Unsqueeze", "opset1", name, {priors, w.const_i64({0}, name + "/axis")}, out0(w, n));
}

void write_prior_box(NetWriter& w, const ir::Node& n) {
  write_grid_op(w, n, "PriorBox", "opset8",
                {{"min_size", floats_of(n, "min_size")},
                 {"max_size", floats_of(n, "max_size")},
                 {"aspect_ratio", floats_of(n, "aspect_ratio")},
                 {"flip", bool_text(n, "flip", 0)},
                 {"clip", bool_text(n, "clip", 0)},
                 {"step", float_text(n, "step", 0)},
                 {"offset", float_text(n, "offset", 0)},
                 {"variance", floats_of(n, "variance")},
                 {"scale_all_sizes", bool_text(n, "scale_all_sizes", 1)},
                 {"fixed_ratio", floats_of(n, "fixed_ratio")},
                 {"fixed_size", floats_of(n, "fixed_size")},
                 {"density", floats_of(n, "density")},
                 {"min_max_aspect_ratios_order", bool_text(n, "min_max_aspect_ratios_order", 1)}});
}

void write_prior_box_clustered(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* variance = n.attr("variance");
  write_grid_op(w, n, "PriorBoxClustered", "opset1",
                {{"width", floats_of(n, "width")},
                 {"height", floats_of(n, "height")},
                 {"clip", bool_text(n, "clip", 0)},
                 {"step", float_text(n, "step", 0)},
                 {"step_w", float_text(n, "step_w", 0)},
                 {"step_h", float_text(n, "step_h", 0)},
                 {"offset", float_text(n, "offset", 0)},
                 // The frontend's default variance is 0.1, the IR's none (which means 0.1 too).
                 {"variance", variance ? floats_text(variance->floats) : "0.1"}});
}

void write_detection_output(NetWriter& w, const ir::Node& n) {
  if ((n.inputs.size() != 3 && n.inputs.size() != 5) || !n.attr("nms_threshold"))
    fail(ErrorKind::InvalidModel, w.where(n),
         "DetectionOutput takes 3 or 5 inputs and nms_threshold");
  const ir::Attribute* code = n.attr("code_type");
  std::string code_type = code ? code->s : "caffe.PriorBoxParameter.CORNER";
  if (code_type.rfind("caffe.PriorBoxParameter.", 0) != 0)
    code_type = "caffe.PriorBoxParameter." + code_type;
  auto int_text = [&](const char* key, int64_t fallback) {
    return std::to_string(int_attr_or(n, key, fallback));
  };
  w.op("DetectionOutput", "opset8", layer_name(n), sources(w, n), out0(w, n),
       {{"background_label_id", int_text("background_label_id", 0)},
        {"top_k", int_text("top_k", -1)},
        {"variance_encoded_in_target", bool_text(n, "variance_encoded_in_target", 0)},
        {"keep_top_k", int_text("keep_top_k", 1)},
        {"code_type", code_type},
        {"share_location", bool_text(n, "share_location", 1)},
        {"nms_threshold", float_text(n, "nms_threshold", 0)},
        {"confidence_threshold", float_text(n, "confidence_threshold", 0)},
        {"clip_after_nms", bool_text(n, "clip_after_nms", 0)},
        {"clip_before_nms", bool_text(n, "clip_before_nms", 0)},
        {"decrease_label_id", bool_text(n, "decrease_label_id", 0)},
        {"normalized", bool_text(n, "normalized", 1)},
        {"input_height", int_text("input_height", 1)},
        {"input_width", int_text("input_width", 1)},
        {"objectness_score", float_text(n, "objectness_score", 0)}});
}

}  // namespace

OpFamily detection_family() {
  return {{{"PriorBox", "1 8", map_prior_box},
           {"PriorBoxClustered", "1", map_prior_box_clustered},
           {"DetectionOutput", "1 8", map_detection_output},
           {"RegionYolo", "1", map_region_yolo},
           {"ReorgYolo", "1", map_reorg_yolo}},
          {{"org.openvinotoolkit:PriorBox", "PriorBox-8 ShapeOf-3 StridedSlice-1 Unsqueeze-1",
            write_prior_box},
           {"org.openvinotoolkit:PriorBoxClustered",
            "PriorBoxClustered-1 ShapeOf-3 StridedSlice-1 Unsqueeze-1", write_prior_box_clustered},
           {"org.openvinotoolkit:DetectionOutput", "DetectionOutput-8", write_detection_output}}};
}

}  // namespace bough::openvino
