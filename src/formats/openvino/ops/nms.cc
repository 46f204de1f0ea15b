// NonMaxSuppression, both ways: OpenVINO's versions 1, 3, 4, 5 and 9 as ONNX's
// NonMaxSuppression, and ONNX's as NonMaxSuppression-9.
//
// Where they agree (OpenVINO's specifications and reference, reference/non_max_suppression
// .cpp, and bough's ONNX kernel): per batch and class, boxes whose score exceeds
// score_threshold are taken by descending score (ties: lower box index first), each dropped
// when its IoU with one already kept exceeds iou_threshold, up to max_output_boxes_per_class;
// boxes are corners in any order ("corner", center_point_box 0) or [x_center, y_center,
// width, height] ("center", 1); IoU is computed in float. Where they differ, the mapping
// keeps OpenVINO's meaning:
// - An absent score_threshold is 0 in OpenVINO (scores must exceed it) and no filter in ONNX;
//   an explicit 0 is passed (and -infinity written for ONNX's absent one). Absent
//   max_output_boxes_per_class and iou_threshold are 0 in both.
// - Boxes, scores and thresholds of other float types are cast to float, as OpenVINO computes.
// - sort_result_descending (the default) orders all selected boxes by score across batches
//   and classes, equal scores by batch, class and box index; ONNX keeps them per batch and
//   class. The rows are reordered by a stable TopK over their scores. (OpenVINO's comparator
//   takes scores within 1e-6 as equal; bough orders them by score.)
// - selected_scores (NMS-5/9) are [batch, class, score] rows, the scores gathered from the
//   input; valid_outputs is the number of rows; output_type i32 is a Cast.
// - The outputs have one row per selected box. The specifications of versions 1 to 4 (and of
//   5 and 9 for plugins without dynamic shapes) pad them with -1 rows up to a maximum; OpenVINO's
//   runtime does not (its reference evaluator trims them, and its plugins run every version as
//   NMS-9, ConvertNMS*ToNMS9), so neither does bough, and a declared row count is dropped.
// - Soft-NMS (soft_nms_sigma other than 0) has no ONNX form and is refused.
#include <cmath>
#include <limits>
#include <string>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

ir::Edge* as_float(GraphLowering& g, ir::Edge* e, const std::string& name) {
  if (e->type.kind == ir::Type::Kind::Tensor && e->type.elem == ElemType::Float) return e;
  return g.node("Cast", {e}, name, int_attr("to", static_cast<int64_t>(ElemType::Float)));
}

ir::Edge* new_edge(GraphLowering& g, const std::string& name) {
  return g.graph()->new_edge(g.model().unique_name(name), ir::Edge::Origin::NodeOutput);
}

// `from` into the existing edge `to`, cast to `type` when that differs from `have`.
void produce(GraphLowering& g, ir::Edge* from, ElemType have, ElemType type, ir::Edge* to,
             const std::string& name) {
  if (have == type) {
    g.node_to("Identity", {from}, {to}, name);
    return;
  }
  g.node_to("Cast", {from}, {to}, name)
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(type)));
}

// True when the scores' batch and class dims are known and hold one (batch, class) pair, so
// that ONNX's order is already the sorted one.
bool one_class(const ir::Edge* scores) {
  const ir::Type& t = scores->type;
  return t.kind == ir::Type::Kind::Tensor && t.shape.rank_known && t.shape.dims.size() == 3 &&
         t.shape.dims[0].is_known() && t.shape.dims[1].is_known() &&
         t.shape.dims[0].value * t.shape.dims[1].value == 1;
}

void map_nms(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string& name = l.name;
  const int version = op_version(l);
  const bool extra_outputs = version >= 5;
  const size_t max_inputs = extra_outputs ? 6 : 5;
  if (io.in.size() < 2 || io.in.size() > max_inputs || io.out.size() != (extra_outputs ? 3u : 1u))
    fail(ErrorKind::InvalidModel, g.where(l),
         "NonMaxSuppression-" + std::to_string(version) + " takes 2 to " +
             std::to_string(max_inputs) + " inputs and gives " +
             (extra_outputs ? "3 outputs" : "one output"));
  const std::string encoding = enum_data(l, "box_encoding", "corner");
  if (encoding != "corner" && encoding != "center")
    fail(ErrorKind::InvalidModel, g.where(l), "box_encoding \"" + encoding + "\"");
  const std::string out_type = version == 1 ? "i64" : enum_data(l, "output_type", "i64");
  if (out_type != "i64" && out_type != "i32")
    fail(ErrorKind::InvalidModel, g.where(l), "output_type \"" + out_type + "\"");
  const ElemType index_type = out_type == "i32" ? ElemType::Int32 : ElemType::Int64;
  if (io.in.size() > 5)
    for (double sigma : const_floats(g, io, 5, "soft_nms_sigma"))
      if (sigma != 0)
        fail(ErrorKind::Unsupported, g.where(l),
             "Soft-NMS (soft_nms_sigma " + std::to_string(sigma) + ") has no ONNX form");
  ir::Edge* scores = as_float(g, io.in[1], name + "/scores");
  std::vector<ir::Edge*> ins{as_float(g, io.in[0], name + "/boxes"), scores};
  ins.push_back(io.in.size() > 2 ? g.as_int64(io.in[2], name + "/max_boxes")
                                 : g.constant(Tensor::scalar_i64(0), name + "/max_boxes"));
  for (size_t k : {3, 4})
    ins.push_back(io.in.size() > k ? as_float(g, io.in[k], name + "/threshold_" + std::to_string(k))
                                   : g.constant(*scalar_of(ElemType::Float, 0),
                                                name + "/threshold_" + std::to_string(k)));
  // OpenVINO returns as many rows as it selects, whatever the file declares.
  for (size_t k = 0; k < 2 && k < io.out.size(); ++k)
    if (io.out[k]->type.kind == ir::Type::Kind::Tensor && io.out[k]->type.shape.rank_known &&
        !io.out[k]->type.shape.dims.empty())
      io.out[k]->type.shape.dims[0] = ir::Dim::unknown();

  ir::Edge* selected = new_edge(g, name + "/selected");
  g.node_to("NonMaxSuppression", ins, {selected}, name + "/nms")
      ->attributes.push_back(int_attr("center_point_box", encoding == "center" ? 1 : 0));
  const bool sort = flag(l, "sort_result_descending", true) && !one_class(io.in[1]);
  ir::Edge* chosen = nullptr;  // the selected boxes' scores, in output order
  if (sort || extra_outputs)
    chosen = g.node("GatherND", {scores, selected}, name + "/selected_scores");
  if (sort) {
    ir::Edge* count = g.node("Shape", {selected}, name + "/count", int_attr("end", 1));
    ir::Edge* sorted = new_edge(g, name + "/sorted_scores");
    ir::Edge* order = new_edge(g, name + "/order");
    g.node_to("TopK", {chosen, count}, {sorted, order}, name + "/sort");
    selected = g.node("Gather", {selected, order}, name + "/sorted");
    chosen = sorted;
  }
  produce(g, selected, ElemType::Int64, index_type, io.out[0], name);
  if (!extra_outputs) return;
  // selected_scores: [batch, class, score] in the port's element type (float when it has none).
  ir::Edge* batch_class = g.node(
      "Slice",
      {selected, g.constant(i64_tensor({0}), name + "/from"),
       g.constant(i64_tensor({2}), name + "/to"), g.constant(i64_tensor({1}), name + "/axis")},
      name + "/batch_class");
  ir::Edge* rows =
      g.node("Concat",
             {as_float(g, batch_class, name + "/batch_class_float"),
              g.node("Unsqueeze", {chosen, g.constant(i64_tensor({1}), name + "/column")},
                     name + "/score_column")},
             name + "/score_rows", int_attr("axis", 1));
  const ir::Type& scores_type = io.out[1]->type;
  const bool declared =
      scores_type.kind == ir::Type::Kind::Tensor && is_float_type(scores_type.elem);
  produce(g, rows, ElemType::Float, declared ? scores_type.elem : ElemType::Float, io.out[1],
          name + "/scores_out");
  produce(g, g.node("Shape", {selected}, name + "/valid", int_attr("end", 1)), ElemType::Int64,
          index_type, io.out[2], name + "/valid_outputs");
}

// ONNX's optional input `k` of `n`, or `fallback` when it is omitted.
PortRef optional_input(NetWriter& w, const ir::Node& n, size_t k, const Tensor& fallback,
                       const std::string& what) {
  if (n.inputs.size() > k && n.inputs[k]) return w.source(n.inputs[k]);
  return w.constant(fallback, layer_name(n) + "/" + what);
}

XmlPort typed_port(ElemType elem, std::vector<ir::Dim> dims) {
  XmlPort p;
  p.elem = elem;
  p.shape = ir::Shape::of(std::move(dims));
  return p;
}

void write_nms(NetWriter& w, const ir::Node& n) {
  if (n.inputs.size() < 2 || !n.inputs[0] || !n.inputs[1])
    fail(ErrorKind::InvalidModel, w.where(n), "NonMaxSuppression needs boxes and scores");
  const std::string name = layer_name(n);
  std::vector<PortRef> ins{
      w.source(n.inputs[0]), w.source(n.inputs[1]),
      optional_input(w, n, 2, Tensor::scalar_i64(0), "max_boxes"),
      optional_input(w, n, 3, *scalar_of(ElemType::Float, 0), "iou_threshold"),
      // ONNX's absent threshold keeps every score; OpenVINO's is 0.
      optional_input(w, n, 4, *scalar_of(ElemType::Float, -std::numeric_limits<double>::infinity()),
                     "score_threshold")};
  XmlLayer l;
  l.name = name;
  l.type = "NonMaxSuppression";
  l.version = "opset9";
  l.data = {{"box_encoding", int_attr_or(n, "center_point_box", 0) == 1 ? "center" : "corner"},
            {"sort_result_descending", "false"},
            {"output_type", "i64"}};
  // selected_indices, selected_scores and valid_outputs; ONNX's node gives the first.
  const std::vector<ir::Dim> rows{ir::Dim::unknown(), ir::Dim::known(3)};
  XmlPort indices = typed_port(ElemType::Int64, rows);
  indices.names = NetWriter::port_of(out0(w, n)).names;
  l.outputs = {indices, typed_port(ElemType::Float, rows),
               typed_port(ElemType::Int64, {ir::Dim::known(1)})};
  const int64_t id = w.add(std::move(l), ins);
  w.bind(n.outputs[0], {id, static_cast<int64_t>(ins.size())});
}

}  // namespace

OpFamily nms_family() {
  return {{{"NonMaxSuppression", "1 3 4 5 9", map_nms}},
          {{"NonMaxSuppression", "NonMaxSuppression-9", write_nms}}};
}

}  // namespace bough::openvino
