// If, Loop and Scan against their bodies: the attributes they need, how many inputs and
// outputs each side has, and (for If) the types the branches and the node declare. The
// kernels in exec/control rely on these counts; checking them here reports them all at
// once, with their places, before anything is planned.
#include <string>

#include "check/control_flow_rules.h"
#include "check/rules.h"

namespace bough::check {

namespace {

using K = ir::Attribute::Kind;

std::string kind_name(K k) {
  switch (k) {
    case K::Undefined:
      return "undefined";
    case K::Float:
      return "a float";
    case K::Int:
      return "an int";
    case K::String:
      return "a string";
    case K::Tensor:
      return "a tensor";
    case K::Graph:
      return "a graph";
    case K::SparseTensor:
      return "a sparse tensor";
    case K::TypeProto:
      return "a type";
    case K::Floats:
      return "floats";
    case K::Ints:
      return "ints";
    case K::Strings:
      return "strings";
    case K::Tensors:
      return "tensors";
    case K::Graphs:
      return "graphs";
    case K::SparseTensors:
      return "sparse tensors";
    case K::TypeProtos:
      return "types";
  }
  return "?";
}

std::string count(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The attribute `name` if present with kind `kind`; reports it missing (when `required`) or
// of the wrong kind. Inside a function body an attribute referring to the caller's is
// taken on trust: its kind is the caller's.
const ir::Attribute* attribute(const NodeSite& site, const char* name, K kind, bool required) {
  const ir::Attribute* a = site.node.attr(name);
  if (!a) {
    if (required)
      site.out.error(site.place,
                     "missing attribute " + std::string(name) + " (" + kind_name(kind) + ")");
    return nullptr;
  }
  if (!a->ref_attr_name.empty()) return nullptr;
  if (a->kind != kind) {
    site.out.error(site.place, "attribute " + std::string(name) + " is " + kind_name(a->kind) +
                                   ", expected " + kind_name(kind));
    return nullptr;
  }
  return a;
}

const ir::Graph* graph_attribute(const NodeSite& site, const char* name) {
  const ir::Attribute* a = attribute(site, name, K::Graph, true);
  return a ? a->g.get() : nullptr;
}

// A declared element type of a body input or output, where the operator fixes it.
void expect_elem(const ir::Edge* e, ElemType want, const std::string& place,
                 const std::string& what, Diagnostics& out) {
  const ir::Type& t = e->type;
  if (!t.defined() ||
      (t.kind == ir::Type::Kind::Tensor && (t.elem == want || t.elem == ElemType::Undefined)))
    return;
  out.error(place, what + " '" + e->name + "' has type " + ir::to_string(t) + ", expected tensor(" +
                       std::string(elem_name(want)) + ")");
}

// Same kind and element type all the way down, where both are known; shapes may differ.
bool same_kinds(const ir::Type& a, const ir::Type& b) {
  if (a.kind != b.kind) return false;
  if (a.elem != b.elem && a.elem != ElemType::Undefined && b.elem != ElemType::Undefined)
    return false;
  return !a.inner || !b.inner || !a.inner->defined() || !b.inner->defined() ||
         same_kinds(*a.inner, *b.inner);
}

void check_if_types(const NodeSite& site, const ir::Graph& then_g, const ir::Graph& else_g) {
  const int since = since_of(*ops::find_op("", "If"), site.opset);
  const std::string row = "If-" + std::to_string(since);
  std::string why;
  for (const ir::Graph* g : {&then_g, &else_g})
    for (size_t i = 0; i < g->outputs.size(); ++i)
      if (!if_allows(since, g->outputs[i]->type, &why))
        site.out.error(g->path(), "output " + std::to_string(i) + " '" + g->outputs[i]->name +
                                      "' has type " + ir::to_string(g->outputs[i]->type) +
                                      ", which " + row + " does not allow (" + why + ")");
  const auto& outs = site.node.outputs;
  for (size_t i = 0; i < outs.size(); ++i) {
    if (outs[i] && !if_allows(since, outs[i]->type, &why))
      site.out.error(site.place, "output " + std::to_string(i) + " '" + outs[i]->name +
                                     "' has type " + ir::to_string(outs[i]->type) + ", which " +
                                     row + " does not allow (" + why + ")");
    if (i >= then_g.outputs.size() || i >= else_g.outputs.size()) continue;
    const ir::Type& a = then_g.outputs[i]->type;
    const ir::Type& b = else_g.outputs[i]->type;
    if (a.defined() && b.defined() && !same_kinds(a, b)) {
      site.out.error(site.place, "output " + std::to_string(i) + ": then_branch yields " +
                                     ir::to_string(a) + " but else_branch yields " +
                                     ir::to_string(b) +
                                     "; the branches must agree in kind and element type");
      continue;
    }
    if (!outs[i] || !outs[i]->type.defined()) continue;
    if (!compatible(outs[i]->type, a) || !compatible(outs[i]->type, b)) {
      std::string branches = a.defined() && b.defined()
                                 ? "the union of the branches, " + ir::to_string(union_type(a, b))
                                 : "what the branches yield";
      site.out.error(site.place, "output " + std::to_string(i) + " '" + outs[i]->name +
                                     "' is declared " + ir::to_string(outs[i]->type) +
                                     ", incompatible with " + branches + " (then_branch " +
                                     ir::to_string(a) + ", else_branch " + ir::to_string(b) + ")");
    }
  }
}

void check_if(const NodeSite& site) {
  const ir::Node& n = site.node;
  if (n.inputs.size() != 1)
    site.out.error(site.place, "If takes exactly one input (cond), found " +
                                   std::to_string(n.inputs.size()) +
                                   "; branches read other values by name");
  if (!n.inputs.empty() && n.inputs[0])
    expect_elem(n.inputs[0], ElemType::Bool, site.place, "cond", site.out);
  const ir::Graph* then_g = graph_attribute(site, "then_branch");
  const ir::Graph* else_g = graph_attribute(site, "else_branch");
  for (const ir::Graph* g : {then_g, else_g}) {
    if (!g) continue;
    if (!g->inputs.empty())
      site.out.error(g->path(), "an If branch takes no inputs, found " +
                                    count(g->inputs.size(), "input") + " ('" + g->inputs[0]->name +
                                    "'...); it reads outer values by name");
    if (g->outputs.size() != n.outputs.size())
      site.out.error(site.place, "If has " + count(n.outputs.size(), "output") + " but " +
                                     g->owner_attr + " yields " +
                                     std::to_string(g->outputs.size()));
  }
  if (then_g && else_g) check_if_types(site, *then_g, *else_g);
}

// Loop(M, cond, v_initial...) with a body (iteration_num, cond, v...) -> (cond, v..., scan...):
// N = inputs - 2 carried values, body inputs 2+N, body outputs 1+N+K, node outputs N+K.
void check_loop(const NodeSite& site) {
  const ir::Node& n = site.node;
  const ir::Graph* body = graph_attribute(site, "body");
  if (n.inputs.size() < 2) {
    site.out.error(site.place,
                   "Loop takes at least 2 inputs (M and cond, either may be empty), found " +
                       std::to_string(n.inputs.size()));
    return;
  }
  if (!body) return;
  const size_t carried = n.inputs.size() - 2;
  if (body->inputs.size() != 2 + carried)
    site.out.error(body->path(), "the Loop body takes " + count(body->inputs.size(), "input") +
                                     ", expected " + std::to_string(2 + carried) +
                                     " (iteration number, condition and " +
                                     count(carried, "carried value") + ")");
  if (body->outputs.size() < 1 + carried) {
    site.out.error(body->path(), "the Loop body yields " + count(body->outputs.size(), "output") +
                                     ", expected at least " + std::to_string(1 + carried) +
                                     " (condition and " + count(carried, "carried value") +
                                     ", then scan outputs)");
    return;
  }
  const size_t scans = body->outputs.size() - 1 - carried;
  if (n.outputs.size() != carried + scans)
    site.out.error(site.place, "Loop has " + count(n.outputs.size(), "output") + ", expected " +
                                   std::to_string(carried + scans) + " (the body yields " +
                                   count(carried, "carried value") + " and " +
                                   count(scans, "scan output") + ")");
  if (body->inputs.size() >= 2) {
    expect_elem(body->inputs[0], ElemType::Int64, body->path(), "iteration number", site.out);
    expect_elem(body->inputs[1], ElemType::Bool, body->path(), "condition", site.out);
  }
  expect_elem(body->outputs[0], ElemType::Bool, body->path(), "condition output", site.out);
}

// The per-scan-input or per-scan-output list `name`, when given, has one entry each.
void expect_length(const NodeSite& site, const char* name, size_t n) {
  const ir::Attribute* a = attribute(site, name, K::Ints, false);
  if (a && a->ints.size() != n)
    site.out.error(site.place, "attribute " + std::string(name) + " has " +
                                   std::to_string(a->ints.size()) + " entries, expected " +
                                   std::to_string(n));
}

// Scan(states..., scan_inputs...) with a body (states..., scan elements...) -> (states...,
// scan output elements...): N states and M = num_scan_inputs, body inputs N+M, body outputs
// N+K, node outputs N+K. Scan-8 takes sequence_lens first (and has `directions`).
void check_scan(const NodeSite& site) {
  const ir::Node& n = site.node;
  const bool scan8 = since_of(*ops::find_op("", "Scan"), site.opset) == 8;
  const ir::Graph* body = graph_attribute(site, "body");
  const ir::Attribute* num = attribute(site, "num_scan_inputs", K::Int, true);
  if (!num) return;
  const size_t given = n.inputs.size() - (scan8 && !n.inputs.empty() ? 1 : 0);
  if (num->i < 1 || static_cast<size_t>(num->i) > given) {
    site.out.error(site.place, "num_scan_inputs is " + std::to_string(num->i) + ", expected 1 to " +
                                   std::to_string(given) + " (the number of " +
                                   (scan8 ? "inputs after sequence_lens)" : "inputs)"));
    return;
  }
  const auto scan_inputs = static_cast<size_t>(num->i);
  const size_t states = given - scan_inputs;
  expect_length(site, scan8 ? "directions" : "scan_input_directions", scan_inputs);
  if (!scan8) expect_length(site, "scan_input_axes", scan_inputs);
  if (!body) return;
  if (body->inputs.size() != states + scan_inputs)
    site.out.error(body->path(), "the Scan body takes " + count(body->inputs.size(), "input") +
                                     ", expected " + std::to_string(states + scan_inputs) + " (" +
                                     count(states, "state") + " and " +
                                     count(scan_inputs, "scan input") + ")");
  if (body->outputs.size() < states) {
    site.out.error(body->path(), "the Scan body yields " + count(body->outputs.size(), "output") +
                                     ", expected at least " + std::to_string(states) +
                                     " (the states, then scan outputs)");
    return;
  }
  const size_t scans = body->outputs.size() - states;
  if (n.outputs.size() != states + scans)
    site.out.error(site.place, "Scan has " + count(n.outputs.size(), "output") + ", expected " +
                                   std::to_string(states + scans) + " (the body yields " +
                                   count(states, "state") + " and " + count(scans, "scan output") +
                                   ")");
  if (!scan8) {
    expect_length(site, "scan_output_directions", scans);
    expect_length(site, "scan_output_axes", scans);
  }
}

}  // namespace

void check_control_flow(const NodeSite& site) {
  const ir::Node& n = site.node;
  if (!n.domain.empty()) return;
  if (n.op_type == "If") check_if(site);
  if (n.op_type == "Loop") check_loop(site);
  if (n.op_type == "Scan") check_scan(site);
}

}  // namespace bough::check
