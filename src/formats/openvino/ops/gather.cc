// Gathering and scattering, both ways: Gather-1/7/8, GatherND-5/8, GatherElements-6,
// ScatterNDUpdate-3/15 (ONNX's ScatterND), ScatterElementsUpdate-3/12 (ScatterElements),
// ScatterUpdate-3 (ScatterND with each index a 1-tuple, along axis 0) and NonZero-3.
#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// The rank `l`'s input `k` declares; refused when unknown.
int64_t input_rank(GraphLowering& g, const XmlLayer& l, size_t k, const char* what) {
  const ir::Shape& s = l.inputs.at(k).shape;
  if (!s.rank_known)
    fail(ErrorKind::Unsupported, g.where(l), std::string(what) + " of unknown rank");
  return static_cast<int64_t>(s.dims.size());
}

std::vector<int64_t> iota(int64_t from, int64_t to) {
  std::vector<int64_t> v;
  for (int64_t i = from; i < to; ++i) v.push_back(i);
  return v;
}

// Gather-8 with batch_dims b > 0 (OpenVINO's Gather-8 specification: out[b0.., i.., j..] =
// data[b0.., :axis.., indices[b0.., i..], ...]) is ONNX's GatherND with batch_dims b, each
// index a 1-tuple, once data's `axis` is moved next to the batch axes; the output's index
// axes are then moved back after data's axes b..axis-1. Both formats count negative indices
// from the end.
void map_batched_gather(GraphLowering& g, const LayerIO& io, int64_t b, int64_t axis) {
  const XmlLayer& l = io.layer;
  const int64_t r = input_rank(g, l, 0, "Gather with batch_dims: data");
  const int64_t q = input_rank(g, l, 1, "Gather with batch_dims: indices") - b;
  if (axis < 0) axis += r;
  if (axis < b || axis >= r || q < 0)
    fail(ErrorKind::InvalidModel, g.where(l),
         "axis " + std::to_string(axis) + " and batch_dims " + std::to_string(b) +
             " do not fit data of rank " + std::to_string(r));
  ir::Edge* data = io.in[0];
  if (axis != b) {
    std::vector<int64_t> perm = iota(0, b);
    perm.push_back(axis);
    for (int64_t i : iota(b, r))
      if (i != axis) perm.push_back(i);
    data = g.node("Transpose", {data}, l.name + "/axis_first", ints_attr("perm", perm));
  }
  ir::Edge* tuples = g.node("Unsqueeze",
                            {g.as_int64(io.in[1], l.name + "/indices"),
                             g.constant(i64_tensor({-1}), l.name + "/tuple_axis")},
                            l.name + "/tuples");
  if (axis == b) {
    g.node_to("GatherND", {data, tuples}, {io.out[0]}, l.name)
        ->attributes.push_back(int_attr("batch_dims", b));
    return;
  }
  ir::Edge* gathered =
      g.node("GatherND", {data, tuples}, l.name + "/gather_nd", int_attr("batch_dims", b));
  // [batch, indices[b:], data[b:axis], data[axis+1:]] -> [batch, data[b:axis], indices[b:], ...]
  std::vector<int64_t> perm = iota(0, b);
  for (int64_t i : iota(b + q, q + axis)) perm.push_back(i);
  for (int64_t i : iota(b, b + q)) perm.push_back(i);
  for (int64_t i : iota(q + axis, q + r - 1)) perm.push_back(i);
  g.node_to("Transpose", {gathered}, {io.out[0]}, l.name)
      ->attributes.push_back(ints_attr("perm", perm));
}

void map_gather(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  const int64_t axis = const_axis(g, io, 2);
  int64_t b = int_data(g, io.layer, "batch_dims", 0);
  if (b < 0) b += input_rank(g, io.layer, 1, "Gather with negative batch_dims: indices");
  if (b != 0) return map_batched_gather(g, io, b, axis);
  g.node_to("Gather", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", axis));
}

// GatherND-8 is ONNX's GatherND; GatherND-5 flattens the batch axes of its output into one
// and is refused for batch_dims > 1 (for 0 and 1 they agree).
void map_gather_nd(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  const int64_t b = int_data(g, io.layer, "batch_dims", 0);
  if (b > 1 && io.layer.version == "opset5")
    fail(ErrorKind::Unsupported, g.where(io.layer),
         "GatherND-5 with batch_dims > 1 (its output folds the batch axes into one)");
  ir::Node* n = g.node_to("GatherND", {io.in[0], g.as_int64(io.in[1], io.layer.name + "/indices")},
                          {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("batch_dims", b));
}

void map_gather_elements(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 2, 2);
  g.node_to("GatherElements", {io.in[0], io.in[1]}, {io.out[0]}, io.layer.name)
      ->attributes.push_back(int_attr("axis", int_data(g, io.layer, "axis", 0)));
}

void write_gather(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins = sources(w, n);
  ins.push_back(w.const_i64({int_attr_or(n, "axis", 0)}, layer_name(n) + "/axis"));
  w.op("Gather", "opset8", layer_name(n), ins, out0(w, n), {{"batch_dims", "0"}});
}

// ONNX's GatherND is GatherND-8 (GatherND-5 would fold the batch axes of its output).
void write_gather_nd(NetWriter& w, const ir::Node& n) {
  w.op("GatherND", "opset8", layer_name(n), sources(w, n), out0(w, n),
       {{"batch_dims", std::to_string(int_attr_or(n, "batch_dims", 0))}});
}

void write_gather_elements(NetWriter& w, const ir::Node& n) {
  w.op("GatherElements", "opset6", layer_name(n), sources(w, n), out0(w, n),
       {{"axis", std::to_string(int_attr_or(n, "axis", 0))}});
}

// ScatterNDUpdate-15's reductions under ONNX's names ("" where ONNX has none).
std::string onnx_reduction(GraphLowering& g, const XmlLayer& l, bool elements) {
  const std::string r = enum_data(l, "reduction", "none");
  if (r == "none") return "none";
  if (r == "sum") return "add";
  if (r == "prod") return "mul";
  if (r == "min" || r == "max") return r;
  fail(ErrorKind::Unsupported, g.where(l),
       std::string(elements ? "ScatterElementsUpdate" : "ScatterNDUpdate") + " with reduction \"" +
           r + "\" (ONNX has none, add, mul, min and max)");
}

void map_scatter_nd(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 3, 3);
  const std::string reduction =
      op_version(io.layer) >= 15 ? onnx_reduction(g, io.layer, false) : "none";
  g.node_to("ScatterND", {io.in[0], g.as_int64(io.in[1], io.layer.name + "/indices"), io.in[2]},
            {io.out[0]}, io.layer.name)
      ->attributes.push_back(string_attr("reduction", reduction));
}

// ScatterElementsUpdate-12's reductions combine with the existing value only with
// use_init_val (ONNX always does); mean has no ONNX form.
void map_scatter_elements(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 4, 4);
  const int64_t axis = const_axis(g, io, 3);
  std::string reduction = "none";
  if (op_version(io.layer) >= 12) {
    reduction = onnx_reduction(g, io.layer, true);
    if (reduction != "none" && !flag(io.layer, "use_init_val", true))
      fail(ErrorKind::Unsupported, g.where(io.layer),
           "ScatterElementsUpdate with use_init_val false (ONNX's reductions include the data)");
  }
  ir::Node* n =
      g.node_to("ScatterElements", {io.in[0], io.in[1], io.in[2]}, {io.out[0]}, io.layer.name);
  n->attributes.push_back(int_attr("axis", axis));
  n->attributes.push_back(string_attr("reduction", reduction));
}

// ScatterUpdate-3 writes updates[i.., j..] to data[indices[i..], j..] along `axis`: for
// axis 0 ONNX's ScatterND with each index a 1-tuple.
void map_scatter_update(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 4, 4);
  const int64_t axis = const_axis(g, io, 3);
  if (axis != 0 && !(axis < 0 && axis + input_rank(g, io.layer, 0, "data") == 0))
    fail(ErrorKind::Unsupported, g.where(io.layer), "ScatterUpdate along an axis other than 0");
  const std::string& name = io.layer.name;
  ir::Edge* tuples = g.node(
      "Unsqueeze",
      {g.as_int64(io.in[1], name + "/indices"), g.constant(i64_tensor({-1}), name + "/tuple_axis")},
      name + "/tuples");
  g.node_to("ScatterND", {io.in[0], tuples, io.in[2]}, {io.out[0]}, name);
}

// NonZero-3's output_type is i64 (ONNX's) or i32.
void map_non_zero(GraphLowering& g, const LayerIO& io) {
  check_inputs(g, io, 1, 1);
  const std::string type = enum_data(io.layer, "output_type", "i64");
  if (type == "i64") {
    g.node_to("NonZero", {io.in[0]}, {io.out[0]}, io.layer.name);
    return;
  }
  if (type != "i32")
    fail(ErrorKind::InvalidModel, g.where(io.layer), "output_type \"" + type + "\"");
  g.node_to("Cast", {g.node("NonZero", {io.in[0]}, io.layer.name + "/i64")}, {io.out[0]},
            io.layer.name)
      ->attributes.push_back(int_attr("to", static_cast<int64_t>(ElemType::Int32)));
}

// ONNX's reductions under OpenVINO's names.
std::string ov_reduction(NetWriter& w, const ir::Node& n) {
  const ir::Attribute* a = n.attr("reduction");
  const std::string r = a ? a->s : "none";
  if (r == "none" || r == "min" || r == "max") return r;
  if (r == "add") return "sum";
  if (r == "mul") return "prod";
  fail(ErrorKind::InvalidModel, w.where(n), "reduction \"" + r + "\"");
}

void write_scatter_nd(NetWriter& w, const ir::Node& n) {
  const std::string r = ov_reduction(w, n);
  if (r == "none") {
    w.op("ScatterNDUpdate", "opset3", layer_name(n), sources(w, n), out0(w, n));
    return;
  }
  w.op("ScatterNDUpdate", "opset15", layer_name(n), sources(w, n), out0(w, n), {{"reduction", r}});
}

void write_scatter_elements(NetWriter& w, const ir::Node& n) {
  std::vector<PortRef> ins = sources(w, n);
  ins.push_back(w.const_i64({int_attr_or(n, "axis", 0)}, layer_name(n) + "/axis"));
  w.op("ScatterElementsUpdate", "opset12", layer_name(n), ins, out0(w, n),
       {{"reduction", ov_reduction(w, n)}, {"use_init_val", "true"}});
}

void write_non_zero(NetWriter& w, const ir::Node& n) {
  w.op("NonZero", "opset3", layer_name(n), sources(w, n), out0(w, n), {{"output_type", "i64"}});
}

}  // namespace

OpFamily gather_family() {
  return {{{"Gather", "1 7 8", map_gather},
           {"GatherND", "5 8", map_gather_nd},
           {"GatherElements", "6", map_gather_elements},
           {"ScatterNDUpdate", "3 15", map_scatter_nd},
           {"ScatterElementsUpdate", "3 12", map_scatter_elements},
           {"ScatterUpdate", "3", map_scatter_update},
           {"NonZero", "3", map_non_zero}},
          {{"Gather", "Gather-8", write_gather},
           {"GatherND", "GatherND-8", write_gather_nd},
           {"GatherElements", "GatherElements-6", write_gather_elements},
           {"ScatterND", "ScatterNDUpdate-3 ScatterNDUpdate-15", write_scatter_nd},
           {"ScatterElements", "ScatterElementsUpdate-12", write_scatter_elements},
           {"NonZero", "NonZero-3", write_non_zero}}};
}

}  // namespace bough::openvino
