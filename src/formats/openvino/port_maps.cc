// If-8 and Loop-5: bodies whose Parameters and Results are bound to the node's inputs and
// outputs by port maps. In the core IR every subgraph is closed, so a Parameter bound to an
// input the body only reads becomes a capture of the outer value (listed among the node's
// implicit inputs, as the ONNX reader does it). Loop's back edges become loop-carried
// values, its sliced inputs are taken apart in the body by the iteration number, and its
// concatenated outputs become ONNX scan outputs, reshaped to OpenVINO's layout.
#include <algorithm>
#include <cstring>
#include <limits>

#include "bough/error.h"
#include "formats/openvino/body_ports.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

void lower_if(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  if (io.in.empty()) fail(ErrorKind::InvalidModel, g.where(l), "If has no cond input");
  ir::Node* node = g.node_to("If", {io.in[0]}, io.out, l.name);
  const char* bodies[2][3] = {{"then_body", "then_port_map", "then_branch"},
                              {"else_body", "else_port_map", "else_branch"}};
  for (const auto& [body_tag, map_name, attr] : bodies) {
    const MappedBody m = mapped_body(g, l, body_tag, map_name);
    const std::vector<PortMapEntry>&ins = m.ins, &outs = m.outs;
    auto body = new_body(g, node, attr);
    ir::Graph* b = body.get();
    GraphLowering lowering(g.model(), b, g.where(l) + "/" + body_tag);
    // (map_name captured by name: clang before 16 cannot capture a structured binding)
    auto bind = [&, map_name = map_name](const XmlLayer& param) {
      const PortMapEntry* e = entry_for(ins, param.id);
      if (!e)
        fail(ErrorKind::InvalidModel, lowering.where(param),
             std::string("the Parameter is not bound by ") + map_name);
      return capture(b, io.in[port_index(g, l, l.inputs, map_name, e->external_port_id)]);
    };
    auto results = lowering.lower(*m.net, bind);
    // Output entries are ranked by external_port_id, each map on its own (OpenVINO's
    // serializer numbers an If's outputs after its inputs; the If-8 spec's example from 0).
    b->outputs.assign(io.out.size(), nullptr);
    for (const PortMapEntry& e : outs) {
      if (e.external_port_id < 0)
        fail(ErrorKind::InvalidModel, g.where(l),
             std::string(map_name) + " binds output " + std::to_string(e.external_port_id));
      ir::Edge*& out = b->outputs[output_position(g, l, m, e.external_port_id)];
      if (out)
        fail(ErrorKind::InvalidModel, g.where(l),
             std::string(map_name) + " binds output " + std::to_string(e.external_port_id) +
                 " twice");
      out = result_edge(g, l, results, e.internal_layer_id);
    }
    for (size_t k = 0; k < b->outputs.size(); ++k)
      if (!b->outputs[k])
        fail(ErrorKind::InvalidModel, g.where(l),
             "output " + std::to_string(k) + " is not bound by " + map_name);
    lowering.separate_outputs();
    node->attributes.push_back(graph_attr(attr, std::move(body)));
  }
}

namespace {

struct Carried {
  int64_t param, result;
  ir::Edge* initial;
};

}  // namespace

namespace {

// Part `iteration` of `outer` along the entry's axis, keeping the axis, as a sliced Loop
// input gets it: part_size elements from iteration * part_size (the slicing of
// TensorIterator-1's port map, which Loop-5's shares). Past the last part the last one
// stays, as OpenVINO's reference Loop does; backward slicing counts the parts from the end.
ir::Edge* sliced_part(GraphLowering& b, ir::Edge* outer, ir::Edge* iteration, const PortMapEntry& e,
                      const std::string& name) {
  auto i64 = [&](int64_t v, const std::string& suffix, bool scalar) {
    return b.constant(scalar ? Tensor::scalar_i64(v)
                             : Tensor::from_vector(ElemType::Int64, {1}, std::vector<int64_t>{v}),
                      name + suffix);
  };
  const int64_t size = e.part_size;
  ir::Edge* dims = b.node("Shape", {outer}, name + "/dims");
  ir::Edge* count =
      b.node("Gather", {dims, i64(*e.axis, "/axis", true)}, name + "/count", int_attr("axis", 0));
  if (size != 1) count = b.node("Div", {count, i64(size, "/part_size", true)}, name + "/parts");
  ir::Edge* last = b.node("Sub", {count, i64(1, "/one", true)}, name + "/last");
  ir::Edge* index = b.node("Min", {iteration, last}, name + "/index");
  if (e.stride < 0) index = b.node("Sub", {last, index}, name + "/index_backward");
  ir::Edge* zero_axis = i64(0, "/zero_axis", false);
  ir::Edge* start = b.node("Unsqueeze", {index, zero_axis}, name + "/start");
  if (size != 1) start = b.node("Mul", {start, i64(size, "/part_len", false)}, name + "/first");
  ir::Edge* end = b.node("Add", {start, i64(size, "/part_end", false)}, name + "/end");
  return b.node("Slice", {outer, start, end, i64(*e.axis, "/slice_axis", false)}, name);
}

}  // namespace

void lower_loop(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string map_name = "port_map";
  if (io.in.size() < 2)
    fail(ErrorKind::InvalidModel, g.where(l), "Loop needs a trip count and a condition");
  const MappedBody mapped = mapped_body(g, l, "body", map_name);
  const XmlNet& net = *mapped.net;
  const std::vector<PortMapEntry>&ins = mapped.ins, &outs = mapped.outs;
  const std::map<int64_t, int64_t>& back = mapped.back;

  const PortMapEntry* cond = nullptr;
  for (const PortMapEntry& e : outs)
    if (e.purpose == "execution_condition") cond = &e;
  if (!cond)
    fail(ErrorKind::InvalidModel, g.where(l), "the port map has no execution_condition output");

  // A negative trip count means no limit, which ONNX says by leaving M out; one known only at
  // run time becomes the largest int64 when it is negative.
  ir::Edge* trip = io.in[0];
  const Tensor* t = GraphLowering::constant_value(trip);
  bool unlimited = t && t->numel() == 1 &&
                   ((t->type() == ElemType::Int64 && t->data<int64_t>()[0] < 0) ||
                    (t->type() == ElemType::Int32 && t->data<int32_t>()[0] < 0));
  ir::Edge* m = unlimited ? nullptr : g.as_int64(trip, l.name + "/trip_count");
  if (m && !t) {
    ir::Edge* negative =
        g.node("Less", {m, g.constant(Tensor::scalar_i64(0), l.name + "/zero_trips")},
               l.name + "/no_limit");
    m = g.node(
        "Where",
        {negative,
         g.constant(Tensor::scalar_i64(std::numeric_limits<int64_t>::max()), l.name + "/max_trips"),
         m},
        l.name + "/trips");
  }
  ir::Node* node = g.node_to("Loop", {}, {}, l.name);

  auto body = new_body(g, node, "body");
  ir::Graph* b = body.get();
  GraphLowering lowering(g.model(), b, g.where(l) + "/body");
  ModelContext& ctx = g.model();
  // The counter and condition take the names of the Parameters that stand for them. A
  // current_iteration Parameter with a back edge takes the back edge's value, not the count
  // (OpenVINO's reference Loop writes the count only when there is none).
  auto is_counter = [&](int64_t id) {
    return has_purpose(ins, id, "current_iteration") && !back.count(id);
  };
  std::string iter_name = l.name + "/iteration", cond_name = l.name + "/cond_in";
  for (const XmlLayer& p : net.layers) {
    const PortMapEntry* e = entry_for(ins, p.id);
    auto back_it = back.find(p.id);
    if (is_counter(p.id)) iter_name = p.name;
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
    const ir::Type type = parameter_type(param, lowering.where(param));
    auto input_of = [&](const PortMapEntry& entry) {
      return io.in[port_index(g, l, l.inputs, map_name, entry.external_port_id)];
    };
    // A sliced input: OpenVINO's reader makes it a sliced input whether or not a back edge
    // also points at it, and the back edge is then not used.
    if (e && e->axis) {
      if (!whole_axis(*e))
        fail(ErrorKind::Unsupported, lowering.where(param),
             "a sliced input other than parts of part_size taken over the whole axis");
      return sliced_part(lowering, capture(b, input_of(*e)), iter, *e, param.name);
    }
    if (is_counter(param.id)) {
      // ONNX counts in int64 scalars; OpenVINO may want int32 or a one-element vector.
      ir::Edge* v = iter;
      if (type.defined() && type.elem != ElemType::Int64)
        v = lowering.node("Cast", {v}, param.name + "/cast",
                          int_attr("to", static_cast<int64_t>(type.elem)));
      if (type.defined() && type.shape.rank_known && type.shape.dims.size() == 1)
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
        port_index(g, l, l.inputs, map_name, e->external_port_id) == 1)
      return cond_in;
    if (back_it != back.end()) {
      ir::Edge* initial = nullptr;
      if (e) {
        initial = input_of(*e);
      } else if (has_purpose(ins, param.id, "current_iteration")) {
        // A counter the body computes itself starts at 0 (a one-element vector unless the
        // Parameter says scalar, as OpenVINO's reference Loop does).
        ElemType elem = type.defined() ? type.elem : ElemType::Int64;
        bool scalar = type.defined() && type.shape.rank_known && type.shape.dims.empty();
        Tensor zero(elem, scalar ? Dims{} : Dims{1});
        std::memset(zero.raw(), 0, zero.nbytes());
        initial = g.constant(std::move(zero), param.name + "/first");
      } else {
        fail(ErrorKind::InvalidModel, lowering.where(param),
             "the Parameter has a back edge but no initial value in the port map");
      }
      ir::Edge* v = b->new_edge(ctx.unique_name(param.name), ir::Edge::Origin::Input);
      v->type = type;
      b->inputs.push_back(v);
      carried.push_back({param.id, back_it->second, initial});
      return v;
    }
    if (!e)
      fail(ErrorKind::InvalidModel, lowering.where(param),
           "the Parameter is bound by neither the port map nor a back edge");
    return capture(b, input_of(*e));
  };
  auto results = lowering.lower(net, bind);

  // A Result returned as it is without a back edge is the last iteration's value: ONNX
  // gets it as a carried value that starts empty and that the body replaces every time.
  for (const PortMapEntry& e : outs) {
    bool is_carried = std::any_of(carried.begin(), carried.end(), [&](const Carried& c) {
      return c.result == e.internal_layer_id;
    });
    if (!e.purpose.empty() || e.external_port_id < 0 || e.axis || is_carried) continue;
    const XmlLayer& r = result_layer(g, l, results, e.internal_layer_id);
    std::optional<ElemType> elem = r.inputs.at(0).elem;
    if (const ir::Type& t = result_edge(g, l, results, e.internal_layer_id)->type;
        t.kind == ir::Type::Kind::Tensor)
      elem = t.elem;
    if (const XmlPort& p = l.outputs[output_position(g, l, mapped, e.external_port_id)]; p.elem)
      elem = p.elem;
    if (!elem)
      fail(ErrorKind::Unsupported, g.where(l),
           "output port " + std::to_string(e.external_port_id) +
               " returns the last value of a Result of unknown element type");
    ir::Edge* v = b->new_edge(ctx.unique_name(r.name + "/previous"), ir::Edge::Origin::Input);
    b->inputs.push_back(v);
    carried.push_back(
        {-1, e.internal_layer_id, g.constant(Tensor(*elem, Dims{0}), r.name + "/before_first")});
  }

  // Body outputs: the condition, the carried values, then the scan outputs.
  b->outputs = {result_edge(g, l, results, cond->internal_layer_id)};
  for (const Carried& c : carried) b->outputs.push_back(result_edge(g, l, results, c.result));

  // Loop outputs: an output port is either a carried value's last value or a scan output.

  std::vector<ir::Edge*> finals;
  for (const Carried& c : carried) {
    ir::Edge* out = nullptr;
    for (const PortMapEntry& e : outs)
      if (e.purpose.empty() && e.external_port_id >= 0 && !e.axis &&
          e.internal_layer_id == c.result)
        out = io.out[output_position(g, l, mapped, e.external_port_id)];
    finals.push_back(out ? out
                         : g.graph()->new_edge(ctx.unique_name(l.name + "/carried"),
                                               ir::Edge::Origin::NodeOutput));
  }
  // A scan output is either the value the body unsqueezed on axis 0, stacked as it is, or
  // stacked and then merged into the concatenation axis.
  std::vector<std::pair<const PortMapEntry*, ir::Edge*>> scans;
  std::vector<ir::Edge*> scan_outputs;
  std::vector<ir::Node*> unsqueezes;
  for (const PortMapEntry& e : outs) {
    if (!e.purpose.empty() || e.external_port_id < 0) continue;
    if (!e.axis) continue;  // a carried value's last value, above
    // The parts of a concatenated output are as long as the body makes them; only their
    // order is the port map's, and backwards is not written here.
    if (e.stride < 0)
      fail(ErrorKind::Unsupported, g.where(l),
           "output port " + std::to_string(e.external_port_id) +
               " concatenated in reverse order (negative stride)");
    ir::Edge* r = result_edge(g, l, results, e.internal_layer_id);
    if (ir::Edge* v = *e.axis == 0 ? unsqueezed_from(r, 0) : nullptr) {
      unsqueezes.push_back(r->producer);
      b->outputs.push_back(v);
      scan_outputs.push_back(io.out[output_position(g, l, mapped, e.external_port_id)]);
      continue;
    }
    b->outputs.push_back(r);
    scans.emplace_back(&e, g.graph()->new_edge(ctx.unique_name(l.name + "/stacked"),
                                               ir::Edge::Origin::NodeOutput));
    scan_outputs.push_back(scans.back().second);
  }
  drop_unused(b, unsqueezes);

  node->inputs = {m, io.in[1]};
  for (const Carried& c : carried) node->inputs.push_back(c.initial);
  node->outputs = finals;
  for (ir::Edge* e : scan_outputs) node->outputs.push_back(e);
  for (size_t i = 0; i < node->outputs.size(); ++i) {
    node->outputs[i]->producer = node;
    node->outputs[i]->producer_index = static_cast<int>(i);
  }
  lowering.separate_outputs();
  node->attributes.push_back(graph_attr("body", std::move(body)));
  for (const auto& [e, stacked] : scans)
    concat_scan(g, l, stacked, io.out[output_position(g, l, mapped, e->external_port_id)],
                result_layer(g, l, results, e->internal_layer_id), *e->axis);
}

}  // namespace bough::openvino
