// If, Loop and Scan written as If-8, Loop-5 and TensorIterator-1. Each capture of a body becomes a
// Parameter bound by a port-map entry to an extra input of the node (the node's implicit inputs
// follow its ONNX inputs); Loop-carried values become Parameters with back edges, and scan outputs,
// which ONNX stacks on a new leading axis, are unsqueezed and concatenated on axis 0. A
// Scan's scanned inputs are sliced one element at a time (OpenVINO keeps the sliced axis,
// so the body squeezes it), its states are back edges.
#include <algorithm>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/net_writer.h"

namespace bough::openvino {

namespace {

// Binds each capture of `body` to a body Parameter; `first_port` is the node's input port
// of its first implicit input.
void bind_captures(NetWriter& body_writer, const ir::Graph& body, const ir::Node& n,
                   int64_t first_port, std::vector<PortMapEntry>* inputs) {
  for (const ir::Edge* c : body.captures) {
    auto it = std::find(n.implicit_inputs.begin(), n.implicit_inputs.end(), c->outer);
    auto k = static_cast<int64_t>(it - n.implicit_inputs.begin());
    PortRef p = body_writer.parameter(c, false);
    inputs->push_back({first_port + k, p.layer, {}, {}});
  }
}

const ir::Graph& body_of(NetWriter& w, const ir::Node& n, const char* name) {
  const ir::Attribute* a = n.attr(name);
  if (!a || !a->g) fail(ErrorKind::InvalidModel, w.where(n), std::string("no ") + name);
  return *a->g;
}

XmlLayer node_layer(const ir::Node& n, const std::string& type, const std::string& version) {
  XmlLayer l;
  l.name = n.name.empty() && !n.outputs.empty() && n.outputs[0] ? n.outputs[0]->name : n.name;
  l.type = type;
  l.version = version;
  for (const ir::Edge* e : n.outputs) l.outputs.push_back(NetWriter::port_of(e));
  return l;
}

void bind_outputs(NetWriter& w, const ir::Node& n, int64_t id, size_t n_inputs) {
  for (size_t k = 0; k < n.outputs.size(); ++k)
    if (n.outputs[k]) w.bind(n.outputs[k], {id, static_cast<int64_t>(n_inputs + k)});
}

}  // namespace

void write_if(NetWriter& w, const ir::Node& n) {
  XmlLayer l = node_layer(n, "If", "opset8");
  std::vector<PortRef> ins{w.source(n.inputs.at(0))};
  for (const ir::Edge* e : n.implicit_inputs) ins.push_back(w.source(e));
  const char* names[2][3] = {{"then_branch", "then_body", "then_port_map"},
                             {"else_branch", "else_body", "else_port_map"}};
  for (const auto& [attr, body_tag, map_name] : names) {
    const ir::Graph& g = body_of(w, n, attr);
    if (g.outputs.size() != n.outputs.size())
      fail(ErrorKind::InvalidModel, w.where(n),
           std::string(attr) + " has the wrong number of outputs");
    auto net = std::make_unique<XmlNet>();
    NetWriter body(w.context(), net.get(), w.where(n) + "/" + body_tag);
    bind_captures(body, g, n, 1, &l.input_maps[map_name]);
    std::vector<int64_t> results = body.write_graph(g);
    for (size_t j = 0; j < results.size(); ++j)
      l.output_maps[map_name].push_back({static_cast<int64_t>(j), results[j], {}, {}});
    l.bodies[body_tag] = std::move(net);
  }
  int64_t id = w.add(std::move(l), ins);
  bind_outputs(w, n, id, ins.size());
}

void write_loop(NetWriter& w, const ir::Node& n) {
  const ir::Graph& g = body_of(w, n, "body");
  size_t carried = n.inputs.size() < 2 ? 0 : n.inputs.size() - 2;
  if (g.inputs.size() != 2 + carried || g.outputs.size() < 1 + carried)
    fail(ErrorKind::InvalidModel, w.where(n), "the body does not match the Loop's inputs");
  size_t scans = g.outputs.size() - 1 - carried;
  XmlLayer l = node_layer(n, "Loop", "opset5");
  // No trip count means no limit (-1); no condition means true.
  std::string name = l.name;
  const ir::Edge* m = n.inputs.empty() ? nullptr : n.inputs[0];
  const ir::Edge* cond = n.inputs.size() < 2 ? nullptr : n.inputs[1];
  std::vector<PortRef> ins{
      m ? w.source(m) : w.const_i64({-1}, name + "/no_trip_count"),
      cond ? w.source(cond) : w.constant(Tensor::scalar_bool(true), name + "/always")};
  for (size_t j = 0; j < carried; ++j) ins.push_back(w.source(n.inputs[2 + j]));
  for (const ir::Edge* e : n.implicit_inputs) ins.push_back(w.source(e));

  auto net = std::make_unique<XmlNet>();
  NetWriter body(w.context(), net.get(), w.where(n) + "/body");
  auto& in_map = l.input_maps["port_map"];
  auto& out_map = l.output_maps["port_map"];
  // The iteration number, and the condition carried from the body's condition output.
  in_map.push_back({-1, body.parameter(g.inputs[0], false).layer, {}, "current_iteration"});
  int64_t cond_param = body.parameter(g.inputs[1], false).layer;
  in_map.push_back({1, cond_param, {}, {}});
  std::vector<int64_t> carried_params;
  for (size_t j = 0; j < carried; ++j) {
    carried_params.push_back(body.parameter(g.inputs[2 + j], false).layer);
    in_map.push_back({static_cast<int64_t>(2 + j), carried_params.back(), {}, {}});
  }
  bind_captures(body, g, n, static_cast<int64_t>(2 + carried), &in_map);
  for (const auto& node : g.nodes) write_node(body, *node);

  int64_t cond_result = body.result(body.source(g.outputs[0]), g.outputs[0]->name);
  out_map.push_back({-1, cond_result, {}, "execution_condition"});
  l.back_edges.emplace_back(cond_result, cond_param);
  auto first_out = static_cast<int64_t>(ins.size());
  for (size_t j = 0; j < carried; ++j) {
    const ir::Edge* e = g.outputs[1 + j];
    int64_t r = body.result(body.source(e), e->name);
    l.back_edges.emplace_back(r, carried_params[j]);
    out_map.push_back({first_out + static_cast<int64_t>(j), r, {}, {}});
  }
  for (size_t s = 0; s < scans; ++s) {
    const ir::Edge* e = g.outputs[1 + carried + s];
    PortRef row = body.op("Unsqueeze", "opset1", e->name + "/row",
                          {body.source(e), body.const_i64({0}, e->name + "/axis")}, nullptr);
    // Typed like e with a leading 1, when e's type is known.
    XmlPort& port = body.output_port(row);
    XmlPort typed = NetWriter::port_of(e);
    port.elem = typed.elem;
    if (typed.elem) {
      port.shape = typed.shape;
      port.shape.dims.insert(port.shape.dims.begin(), ir::Dim::known(1));
    }
    int64_t r = body.result(row, e->name);
    out_map.push_back({first_out + static_cast<int64_t>(carried + s), r, 0, {}});
  }
  l.bodies["body"] = std::move(net);
  int64_t id = w.add(std::move(l), ins);
  bind_outputs(w, n, id, ins.size());
}

namespace {

std::vector<int64_t> ints_or(const ir::Node& n, const char* name, size_t count) {
  const ir::Attribute* a = n.attr(name);
  return a ? a->ints : std::vector<int64_t>(count, 0);
}

// `axis` made non-negative for a value of rank `rank` (OpenVINO reads a port map's axis as
// unsigned); a negative axis of a value of unknown rank has no OpenVINO form.
int64_t non_negative_axis(NetWriter& w, const ir::Node& n, int64_t axis, const ir::Edge* value,
                          int64_t extra_rank) {
  if (axis >= 0) return axis;
  const ir::Type& t = value->type;
  if (t.kind != ir::Type::Kind::Tensor || !t.shape.rank_known)
    fail(ErrorKind::Unsupported, w.where(n),
         "scan axis " + std::to_string(axis) + " of '" + value->name + "', whose rank is unknown");
  int64_t normalized = axis + static_cast<int64_t>(t.shape.dims.size()) + extra_rank;
  if (normalized < 0)
    fail(ErrorKind::InvalidModel, w.where(n),
         "scan axis " + std::to_string(axis) + " is out of range for '" + value->name + "'");
  return normalized;
}

// One element per iteration over the whole axis, forward or (direction 1) backward.
PortMapEntry sliced(int64_t external, int64_t internal, int64_t axis, int64_t direction) {
  PortMapEntry e{external, internal, axis, {}};
  if (direction) {
    e.start = -1;
    e.end = 0;
    e.stride = -1;
  }
  return e;
}

}  // namespace

void write_scan(NetWriter& w, const ir::Node& n) {
  if (w.opset() < 9)
    fail(ErrorKind::Unsupported, w.where(n), "Scan-8 (batched, with sequence_lens)");
  const ir::Graph& g = body_of(w, n, "body");
  const ir::Attribute* k_attr = n.attr("num_scan_inputs");
  auto k = static_cast<size_t>(k_attr ? k_attr->i : 0);
  if (k == 0 || k > n.inputs.size() || g.inputs.size() != n.inputs.size())
    fail(ErrorKind::InvalidModel, w.where(n), "the body does not match the Scan's inputs");
  size_t states = n.inputs.size() - k;
  size_t scans = g.outputs.size() - states;
  std::vector<int64_t> in_axes = ints_or(n, "scan_input_axes", k),
                       in_dirs = ints_or(n, "scan_input_directions", k),
                       out_axes = ints_or(n, "scan_output_axes", scans),
                       out_dirs = ints_or(n, "scan_output_directions", scans);
  for (size_t s = 0; s < k; ++s)
    in_axes[s] = non_negative_axis(w, n, in_axes[s], n.inputs[states + s], 0);
  // A scan output has the body output's rank plus the scanned axis.
  for (size_t s = 0; s < scans && s < out_axes.size(); ++s)
    out_axes[s] = non_negative_axis(w, n, out_axes[s], g.outputs[states + s], 1);
  XmlLayer l = node_layer(n, "TensorIterator", "opset1");
  std::vector<PortRef> ins;
  for (const ir::Edge* e : n.inputs) ins.push_back(w.source(e));
  for (const ir::Edge* e : n.implicit_inputs) ins.push_back(w.source(e));

  auto net = std::make_unique<XmlNet>();
  NetWriter body(w.context(), net.get(), w.where(n) + "/body");
  auto& in_map = l.input_maps["port_map"];
  auto& out_map = l.output_maps["port_map"];
  std::vector<int64_t> state_params;
  for (size_t j = 0; j < states; ++j) {
    state_params.push_back(body.parameter(g.inputs[j], false).layer);
    in_map.push_back({static_cast<int64_t>(j), state_params.back(), {}, {}});
  }
  for (size_t s = 0; s < k; ++s) {
    // The slice keeps the scanned axis with size 1; the body's value is it squeezed.
    const ir::Edge* e = g.inputs[states + s];
    XmlLayer param;
    param.name = e->name + "/part";
    param.type = "Parameter";
    param.version = "opset1";
    // Typed like the scanned input with the axis cut to 1, when that is known.
    XmlPort port = NetWriter::port_of(n.inputs[states + s]);
    port.names.clear();
    port.rt_info.clear();
    if (port.elem && port.shape.rank_known &&
        in_axes[s] < static_cast<int64_t>(port.shape.dims.size()))
      port.shape.dims[static_cast<size_t>(in_axes[s])] = ir::Dim::known(1);
    else
      port.shape = ir::Shape::unknown_rank();
    std::string shape;
    for (const ir::Dim& d : port.shape.dims)
      shape += (shape.empty() ? "" : ",") + (d.is_known() ? std::to_string(d.value) : "?");
    param.data = {{"element_type", port.elem ? std::string(ov_elem_name(*port.elem)) : "dynamic"},
                  {"shape", port.shape.rank_known ? shape : "..."}};
    param.outputs = {port};
    PortRef part{body.add(std::move(param), {}), 0};
    in_map.push_back(sliced(static_cast<int64_t>(states + s), part.layer, in_axes[s], in_dirs[s]));
    body.op("Squeeze", "opset1", e->name + "/squeeze",
            {part, body.const_i64({in_axes[s]}, e->name + "/axis")}, e);
  }
  bind_captures(body, g, n, static_cast<int64_t>(n.inputs.size()), &in_map);
  for (const auto& node : g.nodes) write_node(body, *node);

  auto first_out = static_cast<int64_t>(ins.size());
  for (size_t j = 0; j < states; ++j) {
    const ir::Edge* e = g.outputs[j];
    int64_t r = body.result(body.source(e), e->name);
    l.back_edges.emplace_back(r, state_params[j]);
    out_map.push_back({first_out + static_cast<int64_t>(j), r, {}, {}});
  }
  for (size_t s = 0; s < scans; ++s) {
    const ir::Edge* e = g.outputs[states + s];
    PortRef part =
        body.op("Unsqueeze", "opset1", e->name + "/part",
                {body.source(e), body.const_i64({out_axes[s]}, e->name + "/axis")}, nullptr);
    int64_t r = body.result(part, e->name);
    out_map.push_back(
        sliced(first_out + static_cast<int64_t>(states + s), r, out_axes[s], out_dirs[s]));
  }
  l.bodies["body"] = std::move(net);
  int64_t id = w.add(std::move(l), ins);
  bind_outputs(w, n, id, ins.size());
}

}  // namespace bough::openvino
