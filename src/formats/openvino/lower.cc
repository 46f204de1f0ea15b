#include "formats/openvino/lower.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "bough/error.h"
#include "formats/openvino/element_types.h"
#include "formats/openvino/op_mapping.h"
#include "formats/openvino/op_table.h"
#include "formats/openvino/packed_strings.h"

namespace bough::openvino {

std::string ModelContext::unique_name(const std::string& wanted) {
  std::string base = wanted.empty() ? "value" : wanted;
  if (names.insert(base).second) return base;
  // The next suffix to try is remembered per base, so n clashes cost n tries, not n^2.
  int64_t& k = next_suffix[base];
  std::string name;
  do name = base + "_" + std::to_string(++k);
  while (!names.insert(name).second);
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

ir::Attribute floats_attr(const std::string& name, std::vector<float> v) {
  ir::Attribute a = attr_of(name, ir::Attribute::Kind::Floats);
  a.floats = std::move(v);
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

std::string_view trim_space(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Decimal digits only, as OpenVINO's Dimension(string) checks them (no sign).
std::optional<int64_t> digits(std::string_view s) {
  int64_t v = 0;
  if (s.empty() || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc()) return std::nullopt;
  return v;
}

// One dimension as OpenVINO's Dimension(const std::string&) (src/core/src/dimension.cpp)
// reads it: "?" or "-1" dynamic, digits a size, "lo..hi" a range whose missing ends are 0 and
// unbounded (dynamic unless lo == hi).
std::optional<ir::Dim> dimension(std::string_view item) {
  item = trim_space(item);
  if (item == "?" || item == "-1") return ir::Dim::unknown();
  const size_t dots = item.find("..");
  if (dots == std::string_view::npos) {
    std::optional<int64_t> v = digits(item);
    return v ? std::optional<ir::Dim>(ir::Dim::known(*v)) : std::nullopt;
  }
  std::string_view lo_s = trim_space(item.substr(0, dots)),
                   hi_s = trim_space(item.substr(dots + 2));
  std::optional<int64_t> lo = lo_s.empty() ? std::optional<int64_t>(0) : digits(lo_s);
  std::optional<int64_t> hi = hi_s.empty() ? std::optional<int64_t>(-1) : digits(hi_s);
  if (!lo || !hi || (!hi_s.empty() && *hi < *lo)) return std::nullopt;
  return !hi_s.empty() && *lo == *hi ? ir::Dim::known(*lo) : ir::Dim::unknown();
}

}  // namespace

ir::Shape partial_shape(const std::string& text, const std::string& where) {
  // As OpenVINO's PartialShape(const std::string&) (src/core/src/partial_shape.cpp): space
  // trimmed, then one pair of brackets; "..." is a dynamic rank, "" a scalar, else
  // comma-separated dimensions, none of them empty.
  std::string_view s = trim_space(text);
  if (s.size() >= 2 && s.front() == '[' && s.back() == ']')
    s = trim_space(s.substr(1, s.size() - 2));
  if (s == "...") return ir::Shape::unknown_rank();
  ir::Shape shape = ir::Shape::of({});
  if (s.empty()) return shape;
  // std::getline gives no field after a last comma, so "1,2," is [1,2].
  if (s.back() == ',') s.remove_suffix(1);
  size_t pos = 0;
  while (true) {
    const size_t comma = s.find(',', pos);
    std::string_view item = s.substr(pos, comma == std::string_view::npos ? s.npos : comma - pos);
    std::optional<ir::Dim> d = item.empty() ? std::nullopt : dimension(item);
    if (!d) fail(ErrorKind::InvalidModel, where, "shape \"" + text + "\" is not a partial shape");
    shape.dims.push_back(*d);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return shape;
}

ir::Type parameter_type(const XmlLayer& param, const std::string& where) {
  // OpenVINO reads a Parameter's type from its <data>, never from its port.
  if (!param.attr("element_type") || !param.attr("shape"))
    fail(ErrorKind::InvalidModel, where, "a Parameter needs <data element_type=... shape=...>");
  if (param.outputs.empty()) return ir::Type();
  const XmlPort& port = param.outputs[0];
  std::optional<ElemType> elem = port.elem;
  if (const std::string* t = param.attr("element_type")) {
    elem = is_dynamic_elem(*t) ? std::nullopt : elem_from_ov(*t);
    if (!elem && !is_dynamic_elem(*t))
      fail(ErrorKind::Unsupported, where,
           "element type '" + *t + "', which bough does not support");
  }
  if (!elem) return ir::Type();
  const std::string* shape = param.attr("shape");
  return ir::Type::tensor(*elem, shape ? partial_shape(*shape, where) : port.shape);
}

namespace {

// The layers of `net` in an order where each comes after the layers it reads, and an Assign
// after the ReadValue of its variable (which its core node reads, ops/state.cc); file order
// where it is already valid (the ready layer first in the file goes first: a heap, so the
// order takes n log n). A cycle is an error naming a layer on it.
std::vector<const XmlLayer*> topological_order(const XmlNet& net,
                                               const std::unordered_map<int64_t, size_t>& index,
                                               const std::string& where) {
  size_t n = net.layers.size();
  std::vector<std::vector<size_t>> users(n);
  std::vector<size_t> pending(n, 0);
  for (const XmlEdge& e : net.edges) {
    size_t from = index.at(e.from_layer), to = index.at(e.to_layer);
    users[from].push_back(to);
    ++pending[to];
  }
  std::unordered_map<std::string, size_t> read_values;
  for (size_t i = 0; i < n; ++i)
    if (const std::string* id = net.layers[i].attr("variable_id");
        id && canonical_type(net.layers[i]) == "ReadValue")
      read_values.emplace(*id, i);
  for (size_t i = 0; i < n; ++i)
    if (const std::string* id = net.layers[i].attr("variable_id");
        id && canonical_type(net.layers[i]) == "Assign" && read_values.count(*id)) {
      users[read_values.at(*id)].push_back(i);
      ++pending[i];
    }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<const XmlLayer*> order;
  while (!ready.empty()) {
    size_t pick = ready.top();
    ready.pop();
    order.push_back(&net.layers[pick]);
    for (size_t u : users[pick])
      if (--pending[u] == 0) ready.push(u);
  }
  if (order.size() < n)
    for (size_t i = 0; i < n; ++i)
      if (pending[i] != 0)
        fail(ErrorKind::InvalidModel, where + "/" + net.layers[i].label(),
             "the graph has a cycle through this layer");
  return order;
}

// Port id -> position among `ports`: the position itself when the ids count up from the
// first one (as every writer numbers them), else a table.
class PortPositions {
 public:
  explicit PortPositions(const std::vector<XmlPort>& ports) : ports_(ports) {
    for (size_t i = 0; i < ports.size() && consecutive_; ++i)
      consecutive_ = ports[i].id == ports[0].id + static_cast<int64_t>(i);
    if (!consecutive_)
      for (size_t i = 0; i < ports.size(); ++i) table_.emplace(ports[i].id, i);
  }
  std::optional<size_t> find(int64_t id) const {
    if (consecutive_) {
      if (ports_.empty() || id < ports_[0].id ||
          id - ports_[0].id >= static_cast<int64_t>(ports_.size()))
        return std::nullopt;
      return static_cast<size_t>(id - ports_[0].id);
    }
    auto it = table_.find(id);
    return it == table_.end() ? std::nullopt : std::optional<size_t>(it->second);
  }

 private:
  const std::vector<XmlPort>& ports_;
  bool consecutive_ = true;
  std::unordered_map<int64_t, size_t> table_;
};

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
  if (!port.rt_info.empty()) e->metadata.emplace_back(kPortRtInfoKey, port.rt_info);
  return e;
}

// A Const layer's bytes, from the .bin at `offset`, checked against the file's end and the
// size its type and shape need (OpenVINO accepts a `size` larger than that and reads the
// first bytes). u1 and u2 come packed most significant bits first and are unpacked.
ir::Edge* GraphLowering::const_edge(const XmlLayer& l) {
  std::string at = where(l);
  if (l.outputs.size() != 1) fail(ErrorKind::InvalidModel, at, "a Const has one output port");
  const std::string* type = l.attr("element_type");
  if (!type) fail(ErrorKind::InvalidModel, at, "no element_type");
  if (is_dynamic_elem(*type))
    fail(ErrorKind::InvalidModel, at, "a Const of element type '" + *type + "' has no values");
  auto elem = elem_from_ov(*type);
  if (!elem)
    fail(ErrorKind::Unsupported, at, "element type '" + *type + "', which bough does not support");
  const std::string* shape_s = l.attr("shape");
  std::vector<int64_t> dims = shape_s ? parse_shape(*shape_s, at) : std::vector<int64_t>();
  if (!shape_s) {
    for (const ir::Dim& d : l.outputs[0].shape.dims) {
      if (!d.is_known()) fail(ErrorKind::InvalidModel, at, "a Const needs a static shape");
      dims.push_back(d.value);
    }
  }
  // Checked against `size` and the file before anything is allocated.
  uint64_t numel = 1;
  const bool empty = std::find(dims.begin(), dims.end(), 0) != dims.end();
  for (int64_t d : dims) {
    if (!empty && numel > std::numeric_limits<uint64_t>::max() / 16 / static_cast<uint64_t>(d))
      fail(ErrorKind::InvalidModel, at, "the shape holds too many elements");
    numel = empty ? 0 : numel * static_cast<uint64_t>(d);
  }
  const int bits = ov_sub_byte_bits(*type);
  // A string Const's `size` bytes are in OpenVINO's packed layout, at least its header.
  const bool strings = *elem == ElemType::String;
  const uint64_t needed = strings ? 4 * (numel ? numel + 2 : 1)
                          : bits  ? (numel * static_cast<uint64_t>(bits) + 7) / 8
                                  : elem_storage_bytes(*elem, numel);
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
  if (size < needed)
    fail(ErrorKind::InvalidModel, at,
         "size " + std::to_string(size) + " is less than the " + std::to_string(needed) +
             " bytes the type and shape need");
  if (!model_.weights)
    fail(ErrorKind::IO, at, "the weights file (.bin beside the .xml) is missing");
  uint64_t file = model_.weights->size();
  if (offset > file || size > file - offset)
    fail(ErrorKind::InvalidModel, at,
         "bytes " + std::to_string(offset) + ".." + std::to_string(offset + size) +
             " are past the end of the " + std::to_string(file) + "-byte weights file");
  Tensor t(*elem, Dims(std::span<const int64_t>(dims)));
  std::string_view bytes(model_.weights->data() + offset, strings ? size : needed);
  if (strings) {
    unpack_ov_strings(bytes, t.numel(), t.strings(), at);
  } else if (bits == 1 || bits == 2) {
    std::string unpacked = unpack_ov_bits(bytes, t.numel(), bits);
    if (!unpacked.empty()) std::memcpy(t.raw(), unpacked.data(), unpacked.size());
  } else if (needed) {
    std::memcpy(t.raw(), bytes.data(), needed);
  }
  if (*elem == ElemType::Bool)  // any nonzero byte is true; the kernels expect 0 or 1
    for (size_t i = 0; i < needed; ++i) static_cast<uint8_t*>(t.raw())[i] = bytes[i] != 0 ? 1 : 0;
  std::string wanted = !l.outputs[0].names.empty() ? l.outputs[0].names.front() : l.name;
  ir::Edge* e = graph_->new_edge(model_.unique_name(wanted), ir::Edge::Origin::Initializer);
  e->type = ir::Type::tensor(*elem, ir::Shape::of({}));
  for (int64_t d : dims) e->type.shape.dims.push_back(ir::Dim::known(d));
  e->data = std::move(t);
  if (bits == 1) e->metadata.emplace_back(kElementTypeKey, "u1");
  if (!l.rt_info.empty()) e->metadata.emplace_back(kRtInfoKey, l.rt_info);
  if (!l.outputs[0].rt_info.empty()) e->metadata.emplace_back(kPortRtInfoKey, l.outputs[0].rt_info);
  graph_->initializers.push_back(e);
  return e;
}

std::vector<bool> reaches_result(const XmlNet& net) {
  std::unordered_map<int64_t, size_t> index;
  for (size_t i = 0; i < net.layers.size(); ++i) index.emplace(net.layers[i].id, i);
  std::vector<std::vector<size_t>> sources(net.layers.size());
  for (const XmlEdge& e : net.edges) {
    auto from = index.find(e.from_layer), to = index.find(e.to_layer);
    if (from != index.end() && to != index.end()) sources[to->second].push_back(from->second);
  }
  bool has_result = false;
  for (const XmlLayer& l : net.layers) has_result = has_result || l.type == "Result";
  // Without any Result there is nothing to prune by (and such a net is refused later).
  std::vector<bool> live(net.layers.size(), !has_result);
  std::vector<size_t> stack;
  // The variables Assigns set: their ReadValues stay too (the Assign's core node reads one).
  std::unordered_set<std::string> assigned;
  for (const XmlLayer& l : net.layers)
    if (const std::string* id = l.attr("variable_id"); id && canonical_type(l) == "Assign")
      assigned.insert(*id);
  for (size_t i = 0; i < net.layers.size() && has_result; ++i) {
    const XmlLayer& l = net.layers[i];
    const std::string& type = canonical_type(l);
    const std::string* id = l.attr("variable_id");
    // Parameters stay: they are the graph's inputs and the port maps' targets.
    if (type == "Result" || type == "Assign" || type == "Parameter" ||
        (type == "ReadValue" && id && assigned.count(*id))) {
      live[i] = true;
      stack.push_back(i);
    }
  }
  while (!stack.empty()) {
    size_t i = stack.back();
    stack.pop_back();
    for (size_t from : sources[i])
      if (!live[from]) {
        live[from] = true;
        stack.push_back(from);
      }
  }
  return live;
}

std::vector<std::pair<const XmlLayer*, ir::Edge*>> GraphLowering::lower(const XmlNet& net,
                                                                        const ParamBinder& bind) {
  std::unordered_map<int64_t, size_t> index;
  for (size_t i = 0; i < net.layers.size(); ++i)
    if (!index.emplace(net.layers[i].id, i).second)
      fail(ErrorKind::InvalidModel, where(net.layers[i]), "layer id is used twice in this graph");
  std::vector<PortPositions> in_ports, out_ports;
  for (const XmlLayer& l : net.layers) {
    in_ports.emplace_back(l.inputs);
    out_ports.emplace_back(l.outputs);
  }
  // Every edge must join an existing output port to an existing input port, once.
  struct Source {
    size_t layer, output;
  };
  std::vector<std::vector<std::optional<Source>>> source(net.layers.size());
  for (size_t i = 0; i < net.layers.size(); ++i) source[i].resize(net.layers[i].inputs.size());
  for (const XmlEdge& e : net.edges) {
    auto from = index.find(e.from_layer), to = index.find(e.to_layer);
    auto edge = [&] {  // spelled out for errors only
      return "edge " + std::to_string(e.from_layer) + ":" + std::to_string(e.from_port) + " -> " +
             std::to_string(e.to_layer) + ":" + std::to_string(e.to_port);
    };
    if (from == index.end())
      fail(ErrorKind::InvalidModel, where_, edge() + " comes from a missing layer");
    if (to == index.end())
      fail(ErrorKind::InvalidModel, where_, edge() + " goes to a missing layer");
    const XmlLayer& fl = net.layers[from->second];
    const XmlLayer& tl = net.layers[to->second];
    std::optional<size_t> out_i = out_ports[from->second].find(e.from_port);
    std::optional<size_t> in_i = in_ports[to->second].find(e.to_port);
    if (!out_i)
      fail(ErrorKind::InvalidModel, where(fl),
           edge() + ": the layer has no output port " + std::to_string(e.from_port));
    if (!in_i)
      fail(ErrorKind::InvalidModel, where(tl),
           edge() + ": the layer has no input port " + std::to_string(e.to_port));
    std::optional<Source>& src = source[to->second][*in_i];
    if (src)
      fail(ErrorKind::InvalidModel, where(tl),
           "input port " + std::to_string(e.to_port) + " is connected twice");
    src = Source{from->second, *out_i};
  }

  // Layers no Result reads (directly or through others) are left out, as OpenVINO does.
  const std::vector<bool> live = reaches_result(net);
  std::vector<std::vector<ir::Edge*>> outputs(net.layers.size());  // edges at output ports
  std::vector<std::pair<const XmlLayer*, ir::Edge*>> results;
  for (const XmlLayer* l : topological_order(net, index, where_)) {
    const size_t at = static_cast<size_t>(l - net.layers.data());
    if (!live[at]) continue;
    LayerIO io{*l, {}, {}};
    for (size_t k = 0; k < l->inputs.size(); ++k) {
      const std::optional<Source>& src = source[at][k];
      if (!src)
        fail(ErrorKind::InvalidModel, where(*l),
             "input port " + std::to_string(l->inputs[k].id) + " is not connected");
      const std::vector<ir::Edge*>& made = outputs[src->layer];
      if (src->output >= made.size())
        fail(ErrorKind::InvalidModel, where(*l),
             "input port " + std::to_string(l->inputs[k].id) + " reads a layer with no outputs");
      io.in.push_back(made[src->output]);
    }
    // An input port without dims is a scalar or a dynamic rank; the value it reads may say
    // which (a Const's or a Parameter's shape), and the op mapping reads ranks off ports.
    // The XmlNet belongs to the reader, which made it to be lowered once.
    for (size_t k = 0; k < io.in.size(); ++k) {
      const ir::Type& t = io.in[k]->type;
      auto& port = const_cast<XmlPort&>(l->inputs[k]);
      if (!port.shape.rank_known && t.kind == ir::Type::Kind::Tensor && t.shape.rank_known)
        port.shape = t.shape;
    }
    if (l->type == "Parameter") {
      if (l->outputs.size() != 1)
        fail(ErrorKind::InvalidModel, where(*l), "a Parameter has one output port");
      outputs[at] = {bind(*l)};
      continue;
    }
    if (l->type == "Const" || l->type == "Constant") {
      outputs[at] = {const_edge(*l)};
      continue;
    }
    if (l->type == "Result") {
      if (io.in.size() != 1)
        fail(ErrorKind::InvalidModel, where(*l), "a Result has one input port");
      results.emplace_back(l, io.in[0]);
      result_sources_[l] = &net.layers[source[at][0]->layer].outputs[source[at][0]->output];
      continue;
    }
    for (const XmlPort& p : l->outputs) io.out.push_back(output_edge(*l, p));
    map_layer(*this, io);
    // The layer's rt_info, and its input ports', go with the node that makes its (first)
    // output.
    if (!io.out.empty() && io.out[0]->producer) {
      ir::Metadata& kept = io.out[0]->producer->metadata;
      if (!l->rt_info.empty()) kept.emplace_back(kRtInfoKey, l->rt_info);
      for (size_t k = 0; k < l->inputs.size(); ++k)
        if (!l->inputs[k].rt_info.empty())
          kept.emplace_back(input_port_rt_info_key(k), l->inputs[k].rt_info);
    }
    for (size_t k = 0; k < io.out.size(); ++k)
      if (!io.out[k]->producer)
        fail(ErrorKind::Unsupported, where(*l),
             "output port " + std::to_string(l->outputs[k].id) + " has no ONNX counterpart");
    outputs[at] = io.out;
  }
  // Outputs come in the order of the Result layers in the file.
  std::sort(results.begin(), results.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return results;
}

const XmlPort* GraphLowering::result_source(const XmlLayer& result) const {
  auto it = result_sources_.find(&result);
  return it == result_sources_.end() ? nullptr : it->second;
}

void GraphLowering::separate_outputs(bool inputs_too) {
  std::unordered_set<const ir::Edge*> listed;  // the outputs before this one, as they were
  for (ir::Edge*& out : graph_->outputs) {
    const ir::Edge::Origin origin = out->origin;
    if (listed.insert(out).second && origin != ir::Edge::Origin::Capture &&
        !(inputs_too && origin == ir::Edge::Origin::Input))
      continue;
    ir::Edge* copy = node("Identity", {out}, out->name + "/copy");
    copy->type = out->type;
    out = copy;
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
