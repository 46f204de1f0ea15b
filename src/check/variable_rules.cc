// The variables of a stateful model (OpenVINO's ReadValue and Assign, org.openvinotoolkit):
// per variable one ReadValue and at most one Assign, as OpenVINO's specifications expect
// ("only one pair of ReadValue and Assign operations is expected for each Variable"); an
// Assign's input 1 is its variable's ReadValue (the dependency that makes it run after the
// read, ops/openvino/assign.cc); both only in the main graph, whose variables the session
// keeps. Their types are checked where they are inferred (the operators' files).
#include <map>
#include <string>

#include "check/rules.h"
#include "ir/variable_ops.h"

namespace bough::check {

namespace {

using ir::is_variable_op;
using ir::variable_of;

// Nodes of graphs below the main one: the session keeps no variables for them.
void refuse_nested(const ir::Graph& g, Diagnostics& out) {
  for (const auto& n : g.nodes) {
    if (is_variable_op(*n, "ReadValue") || is_variable_op(*n, "Assign"))
      out.unsupported(g.path() + "/" + n->label(),
                      n->op_type + " of variable '" + variable_of(*n) +
                          "' inside a subgraph: bough keeps the variables of the main graph only");
    for (const auto& a : n->attributes) {
      if (a.g) refuse_nested(*a.g, out);
      for (const auto& sub : a.graphs) refuse_nested(*sub, out);
    }
  }
}

}  // namespace

void check_variables(const ir::Model& model, Diagnostics& out) {
  const ir::Graph& g = *model.graph;
  const std::string path = g.path();
  std::map<std::string, const ir::Node*> reads, writes;
  for (const auto& n : g.nodes) {
    if (!is_variable_op(*n, "ReadValue")) continue;
    auto [it, first] = reads.emplace(variable_of(*n), n.get());
    if (!first)
      out.error(path + "/" + n->label(), "a second ReadValue of variable '" + it->first +
                                             "' (the first is " + it->second->label() +
                                             "): a variable has one ReadValue and one Assign");
  }
  for (const auto& n : g.nodes) {
    if (!is_variable_op(*n, "Assign")) continue;
    const std::string id = variable_of(*n);
    const std::string place = path + "/" + n->label();
    auto [it, first] = writes.emplace(id, n.get());
    if (!first)
      out.error(place, "a second Assign to variable '" + id + "' (the first is " +
                           it->second->label() + "): a variable has one ReadValue and one Assign");
    auto read = reads.find(id);
    if (read == reads.end()) {
      out.error(place, "Assign to variable '" + id + "', which no ReadValue reads");
      continue;
    }
    const ir::Node* producer =
        n->inputs.size() > 1 && n->inputs[1] ? n->inputs[1]->producer : nullptr;
    if (producer != read->second)
      out.error(place, "Assign to variable '" + id + "': its input 1 must be the output of " +
                           read->second->label() + ", the ReadValue of that variable");
  }
  for (const auto& n : g.nodes)
    for (const auto& a : n->attributes) {
      if (a.g) refuse_nested(*a.g, out);
      for (const auto& sub : a.graphs) refuse_nested(*sub, out);
    }
  for (const auto& fn : model.functions) refuse_nested(*fn->body, out);
}

}  // namespace bough::check
