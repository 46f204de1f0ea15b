#include "formats/openvino/body_ports.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "bough/error.h"

namespace bough::openvino {

// The capture of `outer` in `body` (one per outer value), listed among the owner's inputs.
ir::Edge* capture(ir::Graph* body, ir::Edge* outer) {
  for (ir::Edge* c : body->captures)
    if (c->outer == outer) return c;
  ir::Edge* c = body->new_edge(outer->name, ir::Edge::Origin::Capture);
  c->outer = outer;
  c->type = outer->type;
  body->captures.push_back(c);
  auto& implicit = body->owner->implicit_inputs;
  if (std::find(implicit.begin(), implicit.end(), outer) == implicit.end())
    implicit.push_back(outer);
  return c;
}

const PortMapEntry* entry_for(const std::vector<PortMapEntry>& entries, int64_t layer_id) {
  for (const PortMapEntry& e : entries)
    if (e.internal_layer_id == layer_id && e.purpose.empty()) return &e;
  return nullptr;
}

bool has_purpose(const std::vector<PortMapEntry>& entries, int64_t layer_id,
                 const std::string& purpose) {
  for (const PortMapEntry& e : entries)
    if (e.internal_layer_id == layer_id && e.purpose == purpose) return true;
  return false;
}

MappedBody mapped_body(GraphLowering& g, const XmlLayer& l, const std::string& body_tag,
                       const std::string& map_name) {
  auto net = l.bodies.find(body_tag);
  if (net == l.bodies.end()) fail(ErrorKind::InvalidModel, g.where(l), "no " + body_tag);
  MappedBody m;
  m.net = net->second.get();
  if (auto it = l.input_maps.find(map_name); it != l.input_maps.end()) m.ins = it->second;
  if (auto it = l.output_maps.find(map_name); it != l.output_maps.end()) m.outs = it->second;
  std::unordered_map<int64_t, const XmlLayer*> layers;
  for (const XmlLayer& b : m.net->layers) layers.emplace(b.id, &b);
  // `id` must name a layer of `type` in the body.
  auto check_layer = [&](const std::string& what, int64_t id, const char* type) {
    auto it = layers.find(id);
    if (it == layers.end() || it->second->type != type)
      fail(ErrorKind::InvalidModel, g.where(l),
           what + " refers to " + type + " " + std::to_string(id) +
               ", which the body does not have");
  };
  for (const PortMapEntry& e : m.ins) check_layer(map_name, e.internal_layer_id, "Parameter");
  for (const PortMapEntry& e : m.outs) check_layer(map_name, e.internal_layer_id, "Result");
  for (const auto& [from, to] : l.back_edges) {
    check_layer("back_edges", from, "Result");
    check_layer("back_edges", to, "Parameter");
    m.back[to] = from;
  }
  // OpenVINO's reader ranks the output entries' external_port_ids: the k-th smallest binds
  // output k. Its serializer writes (number of inputs + k); older converters wrote k.
  for (const PortMapEntry& e : m.outs)
    if (e.external_port_id >= 0) m.out_rank.emplace(e.external_port_id, 0);
  size_t k = 0;
  for (auto& [id, rank] : m.out_rank) rank = k++;
  if (m.out_rank.size() > l.outputs.size())
    fail(ErrorKind::InvalidModel, g.where(l),
         map_name + " binds " + std::to_string(m.out_rank.size()) + " outputs, but the layer has " +
             std::to_string(l.outputs.size()));
  return m;
}

size_t output_position(GraphLowering& g, const XmlLayer& l, const MappedBody& m,
                       int64_t external_port_id) {
  auto it = m.out_rank.find(external_port_id);
  if (it == m.out_rank.end())
    fail(ErrorKind::InvalidModel, g.where(l),
         "output " + std::to_string(external_port_id) + " is not bound by the port map");
  return it->second;
}

size_t port_index(GraphLowering& g, const XmlLayer& l, const std::vector<XmlPort>& ports,
                  const std::string& map_name, int64_t port_id) {
  for (size_t i = 0; i < ports.size(); ++i)
    if (ports[i].id == port_id) return i;
  fail(ErrorKind::InvalidModel, g.where(l),
       map_name + " binds " + (&ports == &l.inputs ? "input" : "output") + " port " +
           std::to_string(port_id) + ", which the layer does not have");
}

std::unique_ptr<ir::Graph> new_body(GraphLowering& g, ir::Node* owner, const std::string& attr) {
  auto body = std::make_unique<ir::Graph>();
  body->name = owner->name + "/" + attr;
  body->parent = g.graph();
  body->owner = owner;
  body->owner_attr = attr;
  return body;
}

ir::Edge* result_edge(GraphLowering& g, const XmlLayer& l, const BodyResults& results, int64_t id) {
  for (const auto& [r, e] : results)
    if (r->id == id) return e;
  fail(ErrorKind::InvalidModel, g.where(l), "Result " + std::to_string(id) + " is not in the body");
}

const XmlLayer& result_layer(GraphLowering& g, const XmlLayer& l, const BodyResults& results,
                             int64_t id) {
  for (const auto& [r, e] : results)
    if (r->id == id) return *r;
  fail(ErrorKind::InvalidModel, g.where(l), "Result " + std::to_string(id) + " is not in the body");
}

bool whole_axis(const PortMapEntry& e) {
  if (e.part_size < 1) return false;
  return (e.stride == e.part_size && e.start == 0 && e.end == -1) ||
         (e.stride == -e.part_size && e.start == -1 && e.end == 0);
}

ir::Edge* unsqueezed_from(const ir::Edge* e, int64_t axis) {
  const ir::Node* n = e->producer;
  if (!n || n->op_type != "Unsqueeze" || n->inputs.size() != 2 || !n->inputs[1]) return nullptr;
  const Tensor* axes = GraphLowering::constant_value(n->inputs[1]);
  if (!axes || axes->type() != ElemType::Int64 || axes->numel() != 1 ||
      axes->data<int64_t>()[0] != axis)
    return nullptr;
  return n->inputs[0];
}

void drop_unused(ir::Graph* body, const std::vector<ir::Node*>& candidates) {
  auto used = [&](const ir::Edge* e) {
    if (std::find(body->outputs.begin(), body->outputs.end(), e) != body->outputs.end())
      return true;
    for (const auto& n : body->nodes) {
      if (std::find(n->inputs.begin(), n->inputs.end(), e) != n->inputs.end()) return true;
      auto& implicit = n->implicit_inputs;
      if (std::find(implicit.begin(), implicit.end(), e) != implicit.end()) return true;
    }
    return false;
  };
  for (ir::Node* c : candidates) {
    auto it = std::find_if(body->nodes.begin(), body->nodes.end(),
                           [&](const auto& n) { return n.get() == c; });
    if (it == body->nodes.end() || std::any_of(c->outputs.begin(), c->outputs.end(), used))
      continue;
    for (ir::Edge* e : c->outputs)
      if (e) e->producer = nullptr;  // an orphan edge now: nothing reads it
    std::vector<ir::Edge*> inputs = c->inputs;
    body->nodes.erase(it);
    // So are the constants only it read (the axes).
    for (ir::Edge* in : inputs) {
      auto init = std::find(body->initializers.begin(), body->initializers.end(), in);
      if (init != body->initializers.end() && !used(in)) body->initializers.erase(init);
    }
  }
}

// A per-iteration value of rank r concatenated along `axis`: ONNX stacks them as
// [N, d0, ..., d(r-1)]; moving N next to d(axis) and merging the two gives OpenVINO's
// [d0, ..., N*d(axis), ...].
void concat_scan(GraphLowering& g, const XmlLayer& l, ir::Edge* stacked, ir::Edge* out,
                 const XmlLayer& result, int64_t axis) {
  // The rank of the per-iteration value, from its Result's port: only axis 0 can do without.
  const ir::Shape& s = result.inputs.at(0).shape;
  const bool rank_known = s.rank_known;
  auto r = static_cast<int64_t>(s.dims.size());
  if (!rank_known && axis != 0)
    fail(ErrorKind::Unsupported, g.where(l),
         "concatenation on axis " + std::to_string(axis) + " of Result " +
             std::to_string(result.id) + ", whose rank is unknown");
  if (axis < 0) axis += r;
  if (axis < 0 || (rank_known && axis >= std::max<int64_t>(r, 1)))
    fail(ErrorKind::InvalidModel, g.where(l),
         "concatenation axis out of range for Result " + std::to_string(result.id));
  ir::Edge* moved = stacked;
  if (axis > 0) {
    std::vector<int64_t> perm;
    for (int64_t i = 1; i <= axis; ++i) perm.push_back(i);
    perm.push_back(0);
    for (int64_t i = axis + 1; i <= r; ++i) perm.push_back(i);
    moved = g.node("Transpose", {stacked}, l.name + "/scan_axis", ints_attr("perm", perm));
  }
  // The target shape: 0 (keep) before the axis, -1 for the merged dims, then the dims
  // after them as they are at run time.
  auto i64 = [](std::vector<int64_t> v) {
    return Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(v.size())}, v);
  };
  std::vector<int64_t> head(static_cast<size_t>(axis), 0);
  head.push_back(-1);
  ir::Edge* dims = g.node("Shape", {moved}, l.name + "/scan_dims");
  ir::Edge* tail =
      g.node("Slice",
             {dims, g.constant(i64({axis + 2}), l.name + "/scan_tail_start"),
              g.constant(i64({std::numeric_limits<int64_t>::max()}), l.name + "/scan_tail_end")},
             l.name + "/scan_tail");
  ir::Edge* shape = g.node("Concat", {g.constant(i64(head), l.name + "/scan_head"), tail},
                           l.name + "/scan_shape", int_attr("axis", 0));
  g.node_to("Reshape", {moved, shape}, {out}, out->name + "/concat");
}

}  // namespace bough::openvino
