#include "formats/openvino/lower.h"

#include <algorithm>
#include <cstring>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

std::string ModelContext::unique_name(const std::string& wanted) {
  std::string base = wanted.empty() ? "value" : wanted;
  std::string name = base;
  for (int k = 1; names.count(name); ++k) name = base + "_" + std::to_string(k);
  names.insert(name);
  return name;
}

namespace {

ir::Attribute attr_of(const std::string& name, ir::Attribute::Kind kind) {
  ir::Attribute a;
  a.name = name;
  a.kind = kind;
  return a;
}

}  // namespace

ir::Attribute int_attr(const std::string& name, int64_t v) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::Int);
  a.i = v;
  return a;
}

ir::Attribute float_attr(const std::string& name, float v) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::Float);
  a.f = v;
  return a;
}

ir::Attribute string_attr(const std::string& name, std::string v) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::String);
  a.s = std::move(v);
  return a;
}

ir::Attribute ints_attr(const std::string& name, std::vector<int64_t> v) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::Ints);
  a.ints = std::move(v);
  return a;
}

ir::Attribute graph_attr(const std::string& name, std::unique_ptr<ir::Graph> g) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::Graph);
  a.g = std::move(g);
  return a;
}

ir::Type port_type(const XmlPort& p) {
  return p.elem ? ir::Type::tensor(*p.elem, p.shape) : ir::Type();
}

namespace {

const XmlPort* find_port(const std::vector<XmlPort>& ports, int64_t id, size_t* index) {
  for (size_t i = 0; i < ports.size(); ++i)
    if (ports[i].id == id) {
      *index = i;
      return &ports[i];
    }
  return nullptr;
}

// The layers of `net` in an order where each comes after the layers it reads; file order
// where it is already valid. A cycle is an error naming a layer on it.
std::vector<const XmlLayer*> topological_order(const XmlNet& net,
                                               const std::map<int64_t, size_t>& index,
                                               const std::string& where) {
  size_t n = net.layers.size();
  std::vector<std::vector<size_t>> users(n);
  std::vector<size_t> pending(n, 0);
  for (const XmlEdge& e : net.edges) {
    size_t from = index.at(e.from_layer), to = index.at(e.to_layer);
    users[from].push_back(to);
    ++pending[to];
  }
  std::vector<const XmlLayer*> order;
  std::vector<bool> done(n, false);
  while (order.size() < n) {
    size_t pick = n;
    for (size_t i = 0; i < n && pick == n; ++i)
      if (!done[i] && pending[i] == 0) pick = i;
    if (pick == n) {
      for (size_t i = 0; i < n; ++i)
        if (!done[i])
          fail(ErrorKind::InvalidModel, where + "/" + net.layers[i].label(),
               "the graph has a cycle through this layer");
    }
    done[pick] = true;
    order.push_back(&net.layers[pick]);
    for (size_t u : users[pick]) --pending[u];
  }
  return order;
}

std::vector<int64_t> parse_shape(const std::string& s, const std::string& where) {
  std::vector<int64_t> dims;
  size_t pos = 0;
  while (pos < s.size()) {
    size_t comma = s.find(',', pos);
    std::string item = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 0)
      fail(ErrorKind::InvalidModel, where, "shape \"" + s + "\" is not a list of sizes");
    dims.push_back(v);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return dims;
}

}  // namespace

ir::Edge* GraphLowering::output_edge(const XmlLayer& l, const XmlPort& port) {
  std::string wanted = !port.names.empty()     ? port.names.front()
                       : l.outputs.size() == 1 ? l.name
                                               : l.name + ":" + std::to_string(port.id);
  ir::Edge* e = graph_->new_edge(model_.unique_name(wanted), ir::Edge::Origin::NodeOutput);
  e->type = port_type(port);
  return e;
}

// A Const layer's bytes, from the .bin at `offset`, checked against the file's end and the
// size its type and shape need.
ir::Edge* GraphLowering::const_edge(const XmlLayer& l) {
  std::string at = where(l);
  if (l.outputs.size() != 1) fail(ErrorKind::InvalidModel, at, "a Const has one output port");
  const std::string* type = l.attr("element_type");
  if (!type) fail(ErrorKind::InvalidModel, at, "no element_type");
  auto elem = elem_from_ov(*type);
  if (!elem)
    fail(ErrorKind::Unsupported, at, "element type '" + *type + "', which bough does not support");
  if (*elem == ElemType::String)
    fail(ErrorKind::Unsupported, at, "string constants are not supported");
  const std::string* shape_s = l.attr("shape");
  std::vector<int64_t> dims = shape_s ? parse_shape(*shape_s, at) : std::vector<int64_t>();
  if (!shape_s) {
    for (const ir::Dim& d : l.outputs[0].shape.dims) {
      if (!d.is_known()) fail(ErrorKind::InvalidModel, at, "a Const needs a static shape");
      dims.push_back(d.value);
    }
  }
  Tensor t(*elem, Dims(std::span<const int64_t>(dims)));
  auto number = [&](const char* key) -> uint64_t {
    const std::string* s = l.attr(key);
    if (!s) fail(ErrorKind::InvalidModel, at, std::string("no ") + key);
    char* end = nullptr;
    unsigned long long v = std::strtoull(s->c_str(), &end, 10);
    if (s->empty() || *end != '\0' || (*s)[0] == '-')
      fail(ErrorKind::InvalidModel, at, std::string(key) + "=\"" + *s + "\" is not a size");
    return v;
  };
  uint64_t offset = number("offset"), size = number("size");
  if (size != t.nbytes())
    fail(ErrorKind::InvalidModel, at,
         "size " + std::to_string(size) + " does not match " + std::to_string(t.nbytes()) +
             " bytes for the type and shape");
  if (!model_.weights)
    fail(ErrorKind::IO, at, "the weights file (.bin beside the .xml) is missing");
  uint64_t file = model_.weights->size();
  if (offset > file || size > file - offset)
    fail(ErrorKind::InvalidModel, at,
         "bytes " + std::to_string(offset) + ".." + std::to_string(offset + size) +
             " are past the end of the " + std::to_string(file) + "-byte weights file");
  if (size) std::memcpy(t.raw(), model_.weights->data() + offset, size);
  std::string wanted = !l.outputs[0].names.empty() ? l.outputs[0].names.front() : l.name;
  ir::Edge* e = graph_->new_edge(model_.unique_name(wanted), ir::Edge::Origin::Initializer);
  e->type = ir::Type::tensor(*elem, ir::Shape::of({}));
  for (int64_t d : dims) e->type.shape.dims.push_back(ir::Dim::known(d));
  e->data = std::move(t);
  graph_->initializers.push_back(e);
  return e;
}

std::vector<std::pair<const XmlLayer*, ir::Edge*>> GraphLowering::lower(const XmlNet& net,
                                                                        const ParamBinder& bind) {
  std::map<int64_t, size_t> index;
  for (size_t i = 0; i < net.layers.size(); ++i)
    if (!index.emplace(net.layers[i].id, i).second)
      fail(ErrorKind::InvalidModel, where(net.layers[i]), "layer id is used twice in this graph");
  // Every edge must join an existing output port to an existing input port, once.
  std::map<std::pair<int64_t, size_t>, std::pair<int64_t, size_t>>
      source;  // (layer, input) -> (layer, output)
  for (const XmlEdge& e : net.edges) {
    auto from = index.find(e.from_layer), to = index.find(e.to_layer);
    std::string edge = "edge " + std::to_string(e.from_layer) + ":" + std::to_string(e.from_port) +
                       " -> " + std::to_string(e.to_layer) + ":" + std::to_string(e.to_port);
    if (from == index.end())
      fail(ErrorKind::InvalidModel, where_, edge + " comes from a missing layer");
    if (to == index.end()) fail(ErrorKind::InvalidModel, where_, edge + " goes to a missing layer");
    const XmlLayer& fl = net.layers[from->second];
    const XmlLayer& tl = net.layers[to->second];
    size_t out_i = 0, in_i = 0;
    if (!find_port(fl.outputs, e.from_port, &out_i))
      fail(ErrorKind::InvalidModel, where(fl),
           edge + ": the layer has no output port " + std::to_string(e.from_port));
    if (!find_port(tl.inputs, e.to_port, &in_i))
      fail(ErrorKind::InvalidModel, where(tl),
           edge + ": the layer has no input port " + std::to_string(e.to_port));
    if (!source.emplace(std::make_pair(e.to_layer, in_i), std::make_pair(e.from_layer, out_i))
             .second)
      fail(ErrorKind::InvalidModel, where(tl),
           "input port " + std::to_string(e.to_port) + " is connected twice");
  }

  std::map<int64_t, std::vector<ir::Edge*>> outputs;  // layer id -> edges at its output ports
  std::vector<std::pair<const XmlLayer*, ir::Edge*>> results;
  for (const XmlLayer* l : topological_order(net, index, where_)) {
    LayerIO io{*l, {}, {}};
    for (size_t k = 0; k < l->inputs.size(); ++k) {
      auto src = source.find({l->id, k});
      if (src == source.end())
        fail(ErrorKind::InvalidModel, where(*l),
             "input port " + std::to_string(l->inputs[k].id) + " is not connected");
      io.in.push_back(outputs.at(src->second.first).at(src->second.second));
    }
    if (l->type == "Parameter") {
      if (l->outputs.size() != 1)
        fail(ErrorKind::InvalidModel, where(*l), "a Parameter has one output port");
      outputs[l->id] = {bind(*l)};
      continue;
    }
    if (l->type == "Const" || l->type == "Constant") {
      outputs[l->id] = {const_edge(*l)};
      continue;
    }
    if (l->type == "Result") {
      if (io.in.size() != 1)
        fail(ErrorKind::InvalidModel, where(*l), "a Result has one input port");
      results.emplace_back(l, io.in[0]);
      outputs[l->id] = {};
      continue;
    }
    for (const XmlPort& p : l->outputs) io.out.push_back(output_edge(*l, p));
    map_layer(*this, io);
    // The layer's rt_info goes with the node that makes its (first) output.
    if (!l->rt_info.empty() && !io.out.empty() && io.out[0]->producer)
      io.out[0]->producer->metadata.emplace_back(kRtInfoKey, l->rt_info);
    for (size_t k = 0; k < io.out.size(); ++k)
      if (!io.out[k]->producer)
        fail(ErrorKind::Unsupported, where(*l),
             "output port " + std::to_string(l->outputs[k].id) + " has no ONNX counterpart");
    outputs[l->id] = io.out;
  }
  return results;
}

void GraphLowering::separate_outputs() {
  auto& outs = graph_->outputs;
  for (auto it = outs.begin(); it != outs.end(); ++it) {
    if ((*it)->origin != ir::Edge::Origin::Capture && std::find(outs.begin(), it, *it) == it)
      continue;
    ir::Edge* copy = node("Identity", {*it}, (*it)->name + "/copy");
    copy->type = (*it)->type;
    *it = copy;
  }
}

ir::Node* GraphLowering::node_to(const std::string& op, std::vector<ir::Edge*> ins,
                                 std::vector<ir::Edge*> outs, const std::string& name) {
  ir::Node* n = graph_->new_node(op);
  n->name = name;
  n->inputs = std::move(ins);
  n->outputs = std::move(outs);
  for (size_t i = 0; i < n->outputs.size(); ++i) {
    if (!n->outputs[i]) continue;
    n->outputs[i]->producer = n;
    n->outputs[i]->producer_index = static_cast<int>(i);
  }
  return n;
}

ir::Edge* GraphLowering::node(const std::string& op, std::vector<ir::Edge*> ins,
                              const std::string& name, ir::Attribute attr) {
  ir::Edge* out = graph_->new_edge(model_.unique_name(name), ir::Edge::Origin::NodeOutput);
  // Named after its output, which is unique: ONNX wants node names unique in a graph.
  ir::Node* n = node_to(op, std::move(ins), {out}, out->name);
  if (attr.kind != ir::Attribute::Kind::Undefined) n->attributes.push_back(std::move(attr));
  return out;
}

ir::Edge* GraphLowering::constant(Tensor t, const std::string& name) {
  ir::Edge* e = graph_->new_edge(model_.unique_name(name), ir::Edge::Origin::Initializer);
  e->type = ir::Type::tensor(t.type(), ir::Shape::of({}));
  for (int64_t d : t.shape()) e->type.shape.dims.push_back(ir::Dim::known(d));
  e->data = std::move(t);
  graph_->initializers.push_back(e);
  return e;
}

ir::Edge* GraphLowering::as_int64(ir::Edge* e, const std::string& name) {
  if (e->type.kind == ir::Type::Kind::Tensor && e->type.elem == ElemType::Int64) return e;
  return node("Cast", {e}, name, int_attr("to", static_cast<int64_t>(ElemType::Int64)));
}

const Tensor* GraphLowering::constant_value(const ir::Edge* e) {
  while (e && e->origin == ir::Edge::Origin::Capture) e = e->outer;
  return e && e->data ? &*e->data : nullptr;
}

}  // namespace bough::openvino
