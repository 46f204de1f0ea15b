// TensorIterator-1 as an ONNX Scan. Sliced inputs (parts over the whole axis, forward or
// backward) are Scan inputs; OpenVINO keeps the sliced axis where ONNX removes it, so with
// part_size 1 the body unsqueezes each slice, and with larger parts the axis is first split
// into [parts, part_size] and the Scan runs over the first. Back edges are Scan state variables;
// a Result returned without one is a Scan output of which the last part is taken; inputs used
// as they are become captures, and concatenated outputs are Scan outputs stacked on axis 0 and
// merged into the concatenation axis (concat_scan).
#include <algorithm>
#include <cstdlib>
#include <limits>

#include "bough/error.h"
#include "formats/openvino/body_ports.h"
#include "formats/openvino/map_helpers.h"
#include "formats/openvino/op_mapping.h"

namespace bough::openvino {

namespace {

ir::Edge* i64_vector(GraphLowering& g, int64_t v, const std::string& name) {
  return g.constant(Tensor::from_vector(ElemType::Int64, {1}, std::vector<int64_t>{v}), name);
}

// `x` with its `axis` of length L split into [L / part, part]: scanning the first of the two
// hands the body one part at a time, in order, as OpenVINO cuts them.
ir::Edge* in_parts(GraphLowering& g, ir::Edge* x, int64_t axis, int64_t part,
                   const std::string& name) {
  ir::Edge* dims = g.node("Shape", {x}, name + "/dims");
  std::vector<ir::Edge*> pieces;
  if (axis > 0)
    pieces.push_back(g.node(
        "Slice",
        {dims, i64_vector(g, 0, name + "/head_start"), i64_vector(g, axis, name + "/head_end")},
        name + "/head"));
  pieces.push_back(g.constant(i64_tensor({-1, part}), name + "/split"));
  pieces.push_back(g.node("Slice",
                          {dims, i64_vector(g, axis + 1, name + "/tail_start"),
                           i64_vector(g, std::numeric_limits<int64_t>::max(), name + "/tail_end")},
                          name + "/tail"));
  ir::Edge* shape = g.node("Concat", pieces, name + "/parts_shape", int_attr("axis", 0));
  ir::Edge* parts = g.node("Reshape", {x, shape}, name + "/parts");
  // Scan wants its inputs typed: x's type with the axis split.
  parts->type = x->type;
  if (x->type.kind == ir::Type::Kind::Tensor && x->type.shape.rank_known) {
    std::vector<ir::Dim>& dims = parts->type.shape.dims;
    const ir::Dim whole = dims[axis];
    dims[axis] = whole.is_known() ? ir::Dim::known(whole.value / part) : ir::Dim::unknown();
    dims.insert(dims.begin() + axis + 1, ir::Dim::known(part));
  }
  return parts;
}

}  // namespace

void lower_tensor_iterator(GraphLowering& g, const LayerIO& io) {
  const XmlLayer& l = io.layer;
  const std::string map_name = "port_map";
  const MappedBody mapped = mapped_body(g, l, "body", map_name);
  const XmlNet& net = *mapped.net;
  const std::vector<PortMapEntry>&ins = mapped.ins, &outs = mapped.outs;
  const std::map<int64_t, int64_t>& back = mapped.back;

  ir::Node* node = g.node_to("Scan", {}, {}, l.name);
  auto body = new_body(g, node, "body");
  ir::Graph* b = body.get();
  GraphLowering lowering(g.model(), b, g.where(l) + "/body");
  ModelContext& ctx = g.model();

  struct State {
    int64_t result;
    ir::Edge *initial, *input;
  };
  struct Sliced {
    const PortMapEntry* entry;
    ir::Edge *outer, *input;
    int64_t axis;  // of `outer`
  };
  std::vector<State> states;
  std::vector<Sliced> sliced;
  auto bind = [&](const XmlLayer& param) -> ir::Edge* {
    const PortMapEntry* e = entry_for(ins, param.id);
    auto back_it = back.find(param.id);
    if (!e)
      fail(ErrorKind::InvalidModel, lowering.where(param),
           back_it == back.end()
               ? "the Parameter is bound by neither the port map nor a back edge"
               : "the Parameter has a back edge but no initial value in the port map");
    ir::Edge* outer = io.in[port_index(g, l, l.inputs, map_name, e->external_port_id)];
    ir::Edge* input = b->new_edge(ctx.unique_name(param.name), ir::Edge::Origin::Input);
    // A sliced input with a back edge too is only sliced: OpenVINO's reader makes it a
    // sliced input and never uses that back edge.
    if (back_it != back.end() && !e->axis) {
      input->type = parameter_type(param, lowering.where(param));
      states.push_back({back_it->second, outer, input});
      return input;
    }
    if (!e->axis) return capture(b, outer);
    if (!whole_axis(*e))
      fail(ErrorKind::Unsupported, lowering.where(param),
           "a sliced input other than parts of part_size taken over the whole axis");
    if (e->part_size == 1) {
      // Scan hands the body each slice without the axis, which the body then puts back; the
      // input is typed as the Parameter less that axis (untyped, a body that returns it
      // as it is gave ONNX Runtime zeros).
      input->type = parameter_type(param, lowering.where(param));
      ir::Shape& part = input->type.shape;
      if (part.rank_known) {
        const auto rank = static_cast<int64_t>(part.dims.size());
        const int64_t axis = *e->axis < 0 ? *e->axis + rank : *e->axis;
        if (axis < 0 || axis >= rank)
          fail(ErrorKind::InvalidModel, lowering.where(param),
               "the sliced axis " + std::to_string(*e->axis) + " is out of range");
        part.dims.erase(part.dims.begin() + axis);
      }
      sliced.push_back({e, outer, input, *e->axis});
      return lowering.node("Unsqueeze",
                           {input, i64_vector(lowering, *e->axis, param.name + "/axis")},
                           param.name + "/part");
    }
    const ir::Shape& shape =
        l.inputs[port_index(g, l, l.inputs, map_name, e->external_port_id)].shape;
    const ir::Shape& s = outer->type.shape.rank_known ? outer->type.shape : shape;
    auto rank = static_cast<int64_t>(s.dims.size());
    int64_t axis = *e->axis < 0 ? *e->axis + rank : *e->axis;
    if (axis < 0 || axis >= rank)
      fail(ErrorKind::InvalidModel, lowering.where(param),
           "the sliced axis " + std::to_string(*e->axis) + " is out of range");
    input->type = parameter_type(param, lowering.where(param));
    sliced.push_back(
        {e, in_parts(g, outer, axis, e->part_size, l.name + "/" + param.name), input, axis});
    return input;
  };
  BodyResults results = lowering.lower(net, bind);
  // The Scan node was made before its body, to own the body's captures; the nodes that cut
  // inputs into parts came after it and must run before it.
  auto& nodes = g.graph()->nodes;
  auto self =
      std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.get() == node; });
  std::rotate(self, self + 1, nodes.end());
  if (sliced.empty()) {
    // OpenVINO then counts the iterations from a concatenated output's start and end
    // (|end - start| / part_size); ONNX's Scan needs a scanned input, so it gets one of that
    // length that the body does not read. With no concatenated output either, the op's count
    // stays unset (-1: src/core/src/op/tensor_iterator.cpp,
    // try_to_set_num_iterations_if_no_slice_inputs) and OpenVINO's CPU plugin runs the body
    // once (src/plugins/intel_cpu/src/nodes/tensoriterator.cpp, getNumIteration: 1 when no
    // port map entry has an axis); its reference implementation would take the -1 as
    // 2^64 - 1 iterations, which no model can mean.
    int64_t count = -1;
    for (const PortMapEntry& e : outs)
      if (e.axis && e.part_size > 0 && count < 0) count = std::abs(e.end - e.start) / e.part_size;
    if (count < 0) count = 1;
    ir::Edge* length = g.constant(
        Tensor::from_vector(ElemType::Int64, {1}, std::vector<int64_t>{count}), l.name + "/count");
    ir::Edge* steps = g.node("ConstantOfShape", {length}, l.name + "/steps");
    steps->type = ir::Type::tensor(ElemType::Float, ir::Shape::of({ir::Dim::known(count)}));
    ir::Edge* step = b->new_edge(ctx.unique_name(l.name + "/step"), ir::Edge::Origin::Input);
    step->type = ir::Type::tensor(ElemType::Float, ir::Shape::of({}));
    static const PortMapEntry kForward{};
    sliced.push_back({&kForward, steps, step, 0});
    // The nodes that make it run before the Scan, like the cutting of inputs above.
    self = std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.get() == node; });
    std::rotate(self, self + 1, nodes.end());
  }
  // A Result returned as it is without a back edge is the last iteration's value: a scan
  // output (ONNX Runtime wants a state's shape fixed) of which the last part is taken.
  std::vector<const PortMapEntry*> lasts;
  for (const PortMapEntry& e : outs) {
    bool is_state = false;
    for (const State& s : states) is_state = is_state || s.result == e.internal_layer_id;
    if (!e.axis && !is_state) lasts.push_back(&e);
  }

  // ONNX Scan: inputs and body inputs are the states, then the scanned values; outputs are
  // the final states, then the scan outputs.
  std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
  for (const State& s : states) {
    b->inputs.push_back(s.input);
    node->inputs.push_back(s.initial);
    b->outputs.push_back(result_edge(g, l, results, s.result));
  }
  for (const Sliced& s : sliced) {
    b->inputs.push_back(s.input);
    node->inputs.push_back(s.outer);
    in_axes.push_back(s.axis);
    in_dirs.push_back(s.entry->stride < 0 ? 1 : 0);
  }

  for (const State& s : states) {
    ir::Edge* out = nullptr;
    for (const PortMapEntry& e : outs)
      if (!e.axis && e.internal_layer_id == s.result)
        out = io.out[output_position(g, l, mapped, e.external_port_id)];
    node->outputs.push_back(out ? out
                                : g.graph()->new_edge(ctx.unique_name(l.name + "/state"),
                                                      ir::Edge::Origin::NodeOutput));
  }
  // A scan output is either the value the body unsqueezed on the concatenation axis,
  // stacked there as it is, or stacked on axis 0 and then merged into that axis.
  std::vector<std::pair<const PortMapEntry*, ir::Edge*>> scans;
  std::vector<ir::Node*> unsqueezes;
  for (const PortMapEntry& e : outs) {
    if (!e.axis) continue;  // a last value, above or below
    // OpenVINO concatenates every iteration's value whole, in the stride's direction; start,
    // end and part_size only count the iterations when no input is sliced.
    if (e.stride == 0)
      fail(ErrorKind::InvalidModel, g.where(l), "a concatenated output with stride 0");
    out_dirs.push_back(e.stride < 0 ? 1 : 0);
    ir::Edge* r = result_edge(g, l, results, e.internal_layer_id);
    if (ir::Edge* v = unsqueezed_from(r, *e.axis)) {
      unsqueezes.push_back(r->producer);
      b->outputs.push_back(v);
      out_axes.push_back(*e.axis);
      node->outputs.push_back(io.out[output_position(g, l, mapped, e.external_port_id)]);
      continue;
    }
    b->outputs.push_back(r);
    out_axes.push_back(0);
    ir::Edge* stacked =
        g.graph()->new_edge(ctx.unique_name(l.name + "/stacked"), ir::Edge::Origin::NodeOutput);
    node->outputs.push_back(stacked);
    scans.emplace_back(&e, stacked);
  }
  std::vector<std::pair<const PortMapEntry*, ir::Edge*>> stacked_lasts;
  for (const PortMapEntry* e : lasts) {
    b->outputs.push_back(result_edge(g, l, results, e->internal_layer_id));
    out_axes.push_back(0);
    out_dirs.push_back(0);
    stacked_lasts.emplace_back(
        e, g.graph()->new_edge(ctx.unique_name(l.name + "/all"), ir::Edge::Origin::NodeOutput));
    node->outputs.push_back(stacked_lasts.back().second);
  }
  drop_unused(b, unsqueezes);
  for (size_t i = 0; i < node->outputs.size(); ++i) {
    node->outputs[i]->producer = node;
    node->outputs[i]->producer_index = static_cast<int>(i);
  }
  lowering.separate_outputs(/*inputs_too=*/true);
  node->attributes.push_back(graph_attr("body", std::move(body)));
  node->attributes.push_back(int_attr("num_scan_inputs", static_cast<int64_t>(sliced.size())));
  node->attributes.push_back(ints_attr("scan_input_axes", in_axes));
  node->attributes.push_back(ints_attr("scan_input_directions", in_dirs));
  if (!out_dirs.empty()) {
    node->attributes.push_back(ints_attr("scan_output_axes", out_axes));
    node->attributes.push_back(ints_attr("scan_output_directions", out_dirs));
  }
  for (const auto& [e, stacked] : scans)
    concat_scan(g, l, stacked, io.out[output_position(g, l, mapped, e->external_port_id)],
                result_layer(g, l, results, e->internal_layer_id), *e->axis);
  for (const auto& [e, stacked] : stacked_lasts) {
    ir::Edge* out = io.out[output_position(g, l, mapped, e->external_port_id)];
    g.node_to("Gather", {stacked, g.constant(Tensor::scalar_i64(-1), out->name + "/last_index")},
              {out}, out->name + "/last")
        ->attributes.push_back(int_attr("axis", 0));
  }
}

}  // namespace bough::openvino
