// OpenVINO's broadcasting in ONNX terms. Elementwise layers: numpy is ONNX's rule and
// none/explicit needs equal shapes, which ONNX then treats alike; pdpd has no ONNX form, so
// the second operand is reshaped explicitly (Squeeze, Unsqueeze) until numpy broadcasting
// gives the same result. Broadcast layers: numpy and bidirectional are ONNX's Expand;
// explicit first puts the data's axes where axes_mapping says. ONNX's Expand is
// Broadcast-3 in bidirectional mode.
#include <algorithm>

#include "bough/error.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/write_helpers.h"

namespace bough::openvino {

namespace {

// The shape of input `k` with its rank known (from its value's type, else from the port).
const ir::Shape& ranked_shape(GraphLowering& g, const LayerIO& io, size_t k, const char* why) {
  const ir::Type& t = io.in.at(k)->type;
  if (t.kind == ir::Type::Kind::Tensor) {
    if (!t.shape.rank_known)
      fail(ErrorKind::Unsupported, g.where(io.layer),
           std::string(why) + " needs the rank of input " + std::to_string(k));
    return t.shape;
  }
  return io.layer.inputs.at(k).shape;
}

std::string dims_text(const ir::Shape& s) {
  std::string text = "[";
  for (size_t i = 0; i < s.dims.size(); ++i)
    text += (i ? ", " : "") + (s.dims[i].is_known() ? std::to_string(s.dims[i].value) : "?");
  return text + "]";
}

// OpenVINO's pdpd rule: B (input 1) is aligned with A (input 0) from `axis` (-1, the
// default, means rank(A) - rank(B)) once its trailing 1s are dropped, and padded with 1s to
// A's rank; dims of 1 then broadcast as in numpy. So B loses its trailing 1s (Squeeze) and
// gets 1s before `axis` and after its last dim (Unsqueeze).
ir::Edge* pdpd_aligned(GraphLowering& g, const LayerIO& io) {
  const ir::Shape& a = ranked_shape(g, io, 0, "pdpd broadcasting");
  const ir::Shape& b = ranked_shape(g, io, 1, "pdpd broadcasting");
  auto ra = static_cast<int64_t>(a.dims.size()), rb = static_cast<int64_t>(b.dims.size());
  int64_t axis = int_data(g, io.layer, "axis", -1);
  if (axis == -1) axis = ra - rb;
  int64_t kept = rb;
  std::vector<int64_t> trailing;
  while (kept > 0 && b.dims[kept - 1].is_known() && b.dims[kept - 1].value == 1)
    trailing.insert(trailing.begin(), --kept);
  if (axis < 0 || axis + kept > ra)
    fail(ErrorKind::InvalidModel, g.where(io.layer),
         "pdpd broadcasting with axis " + std::to_string(axis) + " cannot align input 1 " +
             dims_text(b) + " with input 0 " + dims_text(a));
  const std::string& name = io.layer.name;
  ir::Edge* v = io.in[1];
  if (!trailing.empty())
    v = g.node("Squeeze", {v, g.constant(i64_tensor(trailing), name + "/pdpd_trailing_axes")},
               name + "/pdpd_trimmed");
  std::vector<int64_t> pad;
  for (int64_t i = 0; i < axis; ++i) pad.push_back(i);
  for (int64_t i = axis + kept; i < ra; ++i) pad.push_back(i);
  if (!pad.empty())
    v = g.node("Unsqueeze", {v, g.constant(i64_tensor(pad), name + "/pdpd_pad_axes")},
               name + "/pdpd_aligned");
  return v;
}

}  // namespace

std::vector<ir::Edge*> broadcast_operands(GraphLowering& g, const LayerIO& io) {
  const std::string mode = enum_data(io.layer, "auto_broadcast", "numpy");
  if (mode == "numpy" || mode == "none" || mode == "explicit") return io.in;
  if (mode == "pdpd" && io.in.size() == 2) return {io.in[0], pdpd_aligned(g, io)};
  fail(ErrorKind::Unsupported, g.where(io.layer), "auto_broadcast=\"" + mode + "\"");
}

namespace {

void map_broadcast(GraphLowering& g, const LayerIO& io) {
  const std::string mode = enum_data(io.layer, "mode", "numpy");
  const std::string& name = io.layer.name;
  ir::Edge* data = io.in.empty() ? nullptr : io.in[0];
  if (mode == "explicit") {
    check_inputs(g, io, 3, 3);
    std::vector<int64_t> mapping = const_ints(g, io, 2, "axes_mapping");
    const ir::Shape& target = ranked_shape(g, io, 1, "explicit Broadcast");
    if (target.dims.size() != 1 || !target.dims[0].is_known())
      fail(ErrorKind::Unsupported, g.where(io.layer),
           "explicit Broadcast needs a target_shape of known length");
    int64_t rank = target.dims[0].value;
    const ir::Shape& in = ranked_shape(g, io, 0, "explicit Broadcast");
    if (mapping.size() != in.dims.size() || !std::is_sorted(mapping.begin(), mapping.end()) ||
        std::adjacent_find(mapping.begin(), mapping.end()) != mapping.end() ||
        (!mapping.empty() && (mapping.front() < 0 || mapping.back() >= rank)))
      fail(ErrorKind::InvalidModel, g.where(io.layer),
           "axes_mapping must name " + std::to_string(in.dims.size()) + " increasing axes of the " +
               std::to_string(rank) + "-d output");
    std::vector<int64_t> others;
    for (int64_t i = 0; i < rank; ++i)
      if (!std::binary_search(mapping.begin(), mapping.end(), i)) others.push_back(i);
    if (!others.empty())
      data = g.node("Unsqueeze", {data, g.constant(i64_tensor(others), name + "/new_axes")},
                    name + "/placed");
  } else if (mode == "numpy" || mode == "bidirectional") {
    check_inputs(g, io, 2, 3);
  } else {
    fail(ErrorKind::Unsupported, g.where(io.layer), "Broadcast with mode=\"" + mode + "\"");
  }
  ir::Edge* shape = g.as_int64(io.in[1], name + "/target_shape");
  g.node_to("Expand", {data, shape}, {io.out[0]}, name);
}

void write_expand(NetWriter& w, const ir::Node& n) {
  w.op("Broadcast", "opset3", layer_name(n), sources(w, n), out0(w, n),
       {{"mode", "bidirectional"}});
}

}  // namespace

OpFamily broadcast_family() {
  return {{{"Broadcast", "1 3", map_broadcast}}, {{"Expand", "Broadcast-3", write_expand}}};
}

}  // namespace bough::openvino
