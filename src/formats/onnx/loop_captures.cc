#include "formats/onnx/loop_captures.h"

#include <algorithm>
#include <string>
#include <unordered_set>

namespace bough::onnx {

namespace {

void carry(ir::Graph& g, std::unordered_set<std::string>& names, int64_t opset);

// A new output of `node` for the value capture `c` has when the body ends: named c's name
// and "_final" (then a number, while that name is taken), of c's type.
ir::Edge* final_value_of(const ir::Node& node, const ir::Edge& c,
                         std::unordered_set<std::string>& names) {
  std::string name = c.name + "_final";
  for (int k = 1; names.count(name); ++k) name = c.name + "_final_" + std::to_string(k);
  names.insert(name);
  ir::Edge* final_value = node.graph->new_edge(name, ir::Edge::Origin::NodeOutput);
  final_value->type = c.type;
  return final_value;
}

// Once every capture is carried: the body captures nothing, the node reads no implicit
// inputs, and each of its outputs knows its new place.
void end_captures(ir::Node& node, ir::Graph& body) {
  body.captures.clear();
  node.implicit_inputs.clear();
  for (size_t i = 0; i < node.outputs.size(); ++i)
    if (node.outputs[i]) {
      node.outputs[i]->producer = &node;
      node.outputs[i]->producer_index = static_cast<int>(i);
    }
}

void carry_in_loop(ir::Node& loop, std::unordered_set<std::string>& names) {
  ir::Attribute* a = nullptr;
  for (auto& attr : loop.attributes)
    if (attr.name == "body" && attr.g) a = &attr;
  if (!a) return;
  ir::Graph& body = *a->g;
  auto carried = static_cast<std::ptrdiff_t>(body.inputs.size() >= 2 ? body.inputs.size() - 2 : 0);
  for (ir::Edge* c : body.captures) {
    // The capture edge itself becomes the body input, so every reader of it, nested
    // captures included, stays as it is.
    ir::Edge* outer = c->outer;
    c->origin = ir::Edge::Origin::Input;
    c->outer = nullptr;
    body.inputs.push_back(c);
    body.outputs.insert(body.outputs.begin() + 1 + carried, c);
    loop.inputs.push_back(outer);
    ir::Edge* final_value = final_value_of(loop, *c, names);
    loop.outputs.insert(loop.outputs.begin() + carried, final_value);
    ++carried;
  }
  end_captures(loop, body);
}

// Scan (opset 9 on): inputs and body inputs are the states then the scanned values, outputs
// and body outputs the states then the scan outputs; each capture becomes one more state,
// after the others, that the body returns as it is.
void carry_in_scan(ir::Node& scan, std::unordered_set<std::string>& names) {
  ir::Attribute* a = nullptr;
  const ir::Attribute* k = nullptr;
  for (auto& attr : scan.attributes) {
    if (attr.name == "body" && attr.g) a = &attr;
    if (attr.name == "num_scan_inputs") k = &attr;
  }
  if (!a || !k || k->i < 0 || static_cast<size_t>(k->i) > scan.inputs.size()) return;
  ir::Graph& body = *a->g;
  auto states = static_cast<std::ptrdiff_t>(scan.inputs.size() - static_cast<size_t>(k->i));
  if (body.inputs.size() != scan.inputs.size() ||
      body.outputs.size() < static_cast<size_t>(states) ||
      scan.outputs.size() < static_cast<size_t>(states))
    return;  // the check reports such a Scan; it is not this function's to repair
  for (ir::Edge* c : body.captures) {
    ir::Edge* outer = c->outer;
    c->origin = ir::Edge::Origin::Input;
    c->outer = nullptr;
    body.inputs.insert(body.inputs.begin() + states, c);
    body.outputs.insert(body.outputs.begin() + states, c);
    scan.inputs.insert(scan.inputs.begin() + states, outer);
    ir::Edge* final_value = final_value_of(scan, *c, names);
    scan.outputs.insert(scan.outputs.begin() + states, final_value);
    ++states;
  }
  end_captures(scan, body);
}

void carry(ir::Graph& g, std::unordered_set<std::string>& names, int64_t opset) {
  for (auto& n : g.nodes) {
    // Inner Loops first: their captures may become captures of this body in turn.
    for (auto& a : n->attributes) {
      if (a.g) carry(*a.g, names, opset);
      for (auto& sub : a.graphs) carry(*sub, names, opset);
    }
    if (n->op_type == "Loop" && n->domain.empty()) carry_in_loop(*n, names);
    // Scan-8 has a batch axis and sequence_lens first; its captures stay as they are.
    if (n->op_type == "Scan" && n->domain.empty() && opset >= 9) carry_in_scan(*n, names);
  }
}

void collect_names(const ir::Graph& g, std::unordered_set<std::string>& names) {
  for (const auto& e : g.edges()) names.insert(e->name);
  for (const auto& n : g.nodes)
    for (const auto& a : n->attributes) {
      if (a.g) collect_names(*a.g, names);
      for (const auto& sub : a.graphs) collect_names(*sub, names);
    }
}

}  // namespace

void carry_loop_captures(ir::Model& model) {
  std::unordered_set<std::string> names;
  collect_names(*model.graph, names);
  carry(*model.graph, names, model.opset(""));
}

}  // namespace bough::onnx
