// If-8 and Loop-5: bodies whose Parameters and Results are bound to the node's inputs and
// outputs by port maps. In the core IR every subgraph is closed, so a Parameter bound to an
// input the body only reads becomes a capture of the outer value (listed among the node's
// implicit inputs, as the ONNX reader does it); Loop's back edges become loop-carried values
// and its concatenated outputs become ONNX scan outputs, reshaped to OpenVINO's layout.
#include <algorithm>
#include <limits>

#include "bough/error.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

namespace {

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
    if (e.internal_layer_id == layer_id) return &e;
  return nullptr;
}

// Every entry must name a layer of the right type in the body.
void check_entries(GraphLowering& g, const XmlLayer& l, const std::string& map_name,
                   const std::vector<PortMapEntry>& entries, const XmlNet& body, const char* type) {
  for (const PortMapEntry& e : entries) {
    auto it = std::find_if(body.layers.begin(), body.layers.end(),
                           [&](const XmlLayer& b) { return b.id == e.internal_layer_id; });
    if (it == body.layers.end() || it->type != type)
      fail(ErrorKind::InvalidModel, g.where(l),
           map_name + " refers to " + type + " " + std::to_string(e.internal_layer_id) +
               ", which the body does not have");
  }
}

// The position of the input port `port_id` of `l`.
size_t input_index(GraphLowering& g, const XmlLayer& l, const std::string& map_name,
                   int64_t port_id) {
  for (size_t i = 0; i < l.inputs.size(); ++i)
    if (l.inputs[i].id == port_id) return i;
  fail(ErrorKind::InvalidModel, g.where(l),
       map_name + " binds input port " + std::to_string(port_id) +
           ", which the layer does not have");
}

std::unique_ptr<ir::Graph> new_body(GraphLowering& g, ir::Node* owner, const std::string& attr) {
  auto body = std::make_unique<ir::Graph>();
  body->name = owner->name + "/" + attr;
  body->parent = g.graph();
  body->owner = owner;
  body->owner_attr = attr;
  return body;
}

ir::Edge* result_edge(GraphLowering& g, const XmlLayer& l,
                      const std::vector<std::pair<const XmlLayer*, ir::Edge*>>& results,
                      int64_t id) {
  for (const auto& [r, e] : results)
    if (r->id == id) return e;
  fail(ErrorKind::InvalidModel, g.where(l), "Result " + std::to_string(id) + " is not in the body");
}

const XmlLayer& result_layer(const std::vector<std::pair<const XmlLayer*, ir::Edge*>>& results,
                             int64_t id) {
  for (const auto& [r, e] : results)
    if (r->id == id) return *r;
  throw std::logic_error("result_layer: checked by result_edge first");
}

}  // namespace

void lower_if(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.empty()) fail(ErrorKind::InvalidModel, g.where(l), "If has no cond input");
  ir::Node* node = g.node_to("If", {io.in[0]}, io.out, l.name);
  const char* bodies[2][3] = {{"then_body", "then_port_map", "then_branch"},
                              {"else_body", "else_port_map", "else_branch"}};
  for (const auto& [body_tag, map_name, attr] : bodies) {
    auto net = l.bodies.find(body_tag);
    if (net == l.bodies.end())
      fail(ErrorKind::InvalidModel, g.where(l), std::string("no ") + body_tag);
    const auto& ins =
        l.input_maps.count(map_name) ? l.input_maps.at(map_name) : std::vector<PortMapEntry>();
    const auto& outs =
        l.output_maps.count(map_name) ? l.output_maps.at(map_name) : std::vector<PortMapEntry>();
    check_entries(g, l, map_name, ins, *net->second, "Parameter");
    check_entries(g, l, map_name, outs, *net->second, "Result");
    auto body = new_body(g, node, attr);
    ir::Graph* b = body.get();
    GraphLowering lowering(g.model(), b, g.where(l) + "/" + body_tag);
    auto bind = [&](const XmlLayer& param) {
      const PortMapEntry* e = entry_for(ins, param.id);
      if (!e)
        fail(ErrorKind::InvalidModel, lowering.where(param),
             std::string("the Parameter is not bound by ") + map_name);
      return capture(b, io.in[input_index(g, l, map_name, e->external_port_id)]);
    };
    auto results = lowering.lower(*net->second, bind);
    // An output entry's external_port_id is the If's output index (If-8 spec example).
    b->outputs.assign(io.out.size(), nullptr);
    for (const PortMapEntry& e : outs) {
      if (e.external_port_id < 0 || static_cast<size_t>(e.external_port_id) >= io.out.size())
        fail(ErrorKind::InvalidModel, g.where(l),
             std::string(map_name) + " binds output " + std::to_string(e.external_port_id) +
                 ", but the If has " + std::to_string(io.out.size()) + " outputs");
      b->outputs[static_cast<size_t>(e.external_port_id)] =
          result_edge(g, l, results, e.internal_layer_id);
    }
    for (size_t k = 0; k < b->outputs.size(); ++k)
      if (!b->outputs[k])
        fail(ErrorKind::InvalidModel, g.where(l),
             "output " + std::to_string(k) + " is not bound by " + map_name);
    node->attributes.push_back(graph_attr(attr, std::move(body)));
  }
}

namespace {

struct Carried {
  int64_t param, result;
  ir::Edge* initial;
};

// A per-iteration value of rank r concatenated along `axis`: ONNX stacks them as
// [N, d0, ..., d(r-1)]; moving N next to d(axis) and merging the two gives OpenVINO's
// [d0, ..., N*d(axis), ...].
void concat_scan(GraphLowering& g, const XmlLayer& l, ir::Edge* stacked, ir::Edge* out,
                 const XmlLayer& result, int64_t axis) {
  const ir::Shape& s = result.inputs.at(0).shape;
  auto r = static_cast<int64_t>(s.dims.size());
  if (axis < 0) axis += r;
  if (axis < 0 || (r > 0 && axis >= r))
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
  g.node_to("Reshape", {moved, shape}, {out}, l.name + "/scan_concat");
}

}  // namespace

void lower_loop(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string map_name = "port_map";
  if (io.in.size() < 2)
    fail(ErrorKind::InvalidModel, g.where(l), "Loop needs a trip count and a condition");
  auto net_it = l.bodies.find("body");
  if (net_it == l.bodies.end()) fail(ErrorKind::InvalidModel, g.where(l), "no body");
  const XmlNet& net = *net_it->second;
  const auto& ins =
      l.input_maps.count(map_name) ? l.input_maps.at(map_name) : std::vector<PortMapEntry>();
  const auto& outs =
      l.output_maps.count(map_name) ? l.output_maps.at(map_name) : std::vector<PortMapEntry>();
  check_entries(g, l, map_name, ins, net, "Parameter");
  check_entries(g, l, map_name, outs, net, "Result");
  std::map<int64_t, int64_t> back;  // Parameter id -> Result id
  for (const auto& [from, to] : l.back_edges) {
    check_entries(g, l, "back_edges", {PortMapEntry{-1, from, {}, {}}}, net, "Result");
    check_entries(g, l, "back_edges", {PortMapEntry{-1, to, {}, {}}}, net, "Parameter");
    back[to] = from;
  }

  const PortMapEntry* cond = nullptr;
  for (const PortMapEntry& e : outs)
    if (e.purpose == "execution_condition") cond = &e;
  if (!cond)
    fail(ErrorKind::InvalidModel, g.where(l), "the port map has no execution_condition output");

  // A trip count of -1 means no limit, which ONNX says by leaving M out.
  ir::Edge* trip = io.in[0];
  const Tensor* t = GraphLowering::constant_value(trip);
  bool unlimited = t && t->numel() == 1 &&
                   ((t->type() == ElemType::Int64 && t->data<int64_t>()[0] < 0) ||
                    (t->type() == ElemType::Int32 && t->data<int32_t>()[0] < 0));
  ir::Edge* m = unlimited ? nullptr : g.as_int64(trip, l.name + "/trip_count");
  ir::Node* node = g.node_to("Loop", {}, {}, l.name);

  auto body = new_body(g, node, "body");
  ir::Graph* b = body.get();
  GraphLowering lowering(g.model(), b, g.where(l) + "/body");
  ModelContext& ctx = g.model();
  // The counter and condition take the names of the Parameters that stand for them.
  std::string iter_name = l.name + "/iteration", cond_name = l.name + "/cond_in";
  for (const XmlLayer& p : net.layers) {
    const PortMapEntry* e = entry_for(ins, p.id);
    auto back_it = back.find(p.id);
    if (e && e->purpose == "current_iteration") iter_name = p.name;
    if (e && back_it != back.end() && back_it->second == cond->internal_layer_id)
      cond_name = p.name;
  }
  ir::Edge* iter = b->new_edge(ctx.unique_name(iter_name), ir::Edge::Origin::Input);
  iter->type = ir::Type::tensor(ElemType::Int64, ir::Shape::of({}));
  ir::Edge* cond_in = b->new_edge(ctx.unique_name(cond_name), ir::Edge::Origin::Input);
  cond_in->type = ir::Type::tensor(ElemType::Bool, ir::Shape::of({}));
  b->inputs = {iter, cond_in};

  std::vector<Carried> carried;
  auto bind = [&](const XmlLayer& param) -> ir::Edge* {
    const PortMapEntry* e = entry_for(ins, param.id);
    const XmlPort& port = param.outputs[0];
    if (e && e->purpose == "current_iteration") {
      // ONNX counts in int64 scalars; OpenVINO may want int32 or a one-element vector.
      ir::Edge* v = iter;
      if (port.elem && *port.elem != ElemType::Int64)
        v = lowering.node("Cast", {v}, param.name + "/cast",
                          int_attr("to", static_cast<int64_t>(*port.elem)));
      if (port.shape.dims.size() == 1)
        v = lowering.node("Unsqueeze",
                          {v, lowering.constant(Tensor::from_vector(ElemType::Int64, {1},
                                                                    std::vector<int64_t>{0}),
                                                param.name + "/axes")},
                          param.name);
      return v;
    }
    auto back_it = back.find(param.id);
    // Bound to the Loop's condition and fed back from the body's condition: that is
    // exactly ONNX's cond_in.
    if (e && back_it != back.end() && back_it->second == cond->internal_layer_id &&
        input_index(g, l, map_name, e->external_port_id) == 1)
      return cond_in;
    if (back_it != back.end()) {
      if (!e)
        fail(ErrorKind::InvalidModel, lowering.where(param),
             "the Parameter has a back edge but no initial value in the port map");
      ir::Edge* v = b->new_edge(ctx.unique_name(param.name), ir::Edge::Origin::Input);
      v->type = port_type(port);
      b->inputs.push_back(v);
      carried.push_back(
          {param.id, back_it->second, io.in[input_index(g, l, map_name, e->external_port_id)]});
      return v;
    }
    if (!e)
      fail(ErrorKind::InvalidModel, lowering.where(param),
           "the Parameter is bound by neither the port map nor a back edge");
    if (e->axis)
      fail(ErrorKind::Unsupported, lowering.where(param), "sliced Loop inputs (port map axis)");
    return capture(b, io.in[input_index(g, l, map_name, e->external_port_id)]);
  };
  auto results = lowering.lower(net, bind);

  // Body outputs: the condition, the carried values, then the scan outputs.
  b->outputs = {result_edge(g, l, results, cond->internal_layer_id)};
  for (const Carried& c : carried) b->outputs.push_back(result_edge(g, l, results, c.result));

  // Loop outputs: an output port is either a carried value's last value or a scan output.
  auto output_index = [&](const PortMapEntry& e) {
    for (size_t i = 0; i < l.outputs.size(); ++i)
      if (l.outputs[i].id == e.external_port_id) return i;
    fail(ErrorKind::InvalidModel, g.where(l),
         "port_map binds output port " + std::to_string(e.external_port_id) +
             ", which the Loop does not have");
  };
  std::vector<ir::Edge*> finals;
  for (const Carried& c : carried) {
    ir::Edge* out = nullptr;
    for (const PortMapEntry& e : outs)
      if (e.purpose.empty() && !e.axis && e.internal_layer_id == c.result)
        out = io.out[output_index(e)];
    finals.push_back(out ? out
                         : g.graph()->new_edge(ctx.unique_name(l.name + "/carried"),
                                               ir::Edge::Origin::NodeOutput));
  }
  std::vector<std::pair<const PortMapEntry*, ir::Edge*>> scans;
  for (const PortMapEntry& e : outs) {
    if (!e.purpose.empty()) continue;
    if (!e.axis) {
      bool is_carried = std::any_of(carried.begin(), carried.end(), [&](const Carried& c) {
        return c.result == e.internal_layer_id;
      });
      if (!is_carried)
        fail(ErrorKind::Unsupported, g.where(l),
             "output port " + std::to_string(e.external_port_id) +
                 " returns the last value of a Result that no back edge carries");
      continue;
    }
    b->outputs.push_back(result_edge(g, l, results, e.internal_layer_id));
    scans.emplace_back(&e, g.graph()->new_edge(ctx.unique_name(l.name + "/stacked"),
                                               ir::Edge::Origin::NodeOutput));
  }

  node->inputs = {m, io.in[1]};
  for (const Carried& c : carried) node->inputs.push_back(c.initial);
  node->outputs = finals;
  for (const auto& [e, stacked] : scans) node->outputs.push_back(stacked);
  for (size_t i = 0; i < node->outputs.size(); ++i) {
    node->outputs[i]->producer = node;
    node->outputs[i]->producer_index = static_cast<int>(i);
  }
  node->attributes.push_back(graph_attr("body", std::move(body)));
  for (const auto& [e, stacked] : scans)
    concat_scan(g, l, stacked, io.out[output_index(*e)],
                result_layer(results, e->internal_layer_id), *e->axis);
}

}  // namespace bough::openvino
