// Single static assignment: every value name is defined once in its graph, and a node
// output of a nested graph does not reuse a name visible from an enclosing graph (ONNX IR,
// "Graphs": "a node output name MUST be distinct from the names from the outer scopes that
// are visible in the nested subgraph"). A subgraph's own inputs and initializers may shadow
// outer names; only node outputs may not, as in the IR spec and the ONNX checker. Names
// are collected in node order, which the reader has made topological.
#include <unordered_map>

#include "check/rules.h"

namespace bough::check {

namespace {

// The names visible from enclosing graphs, each with the innermost graph defining it.
using Visible = std::unordered_map<std::string, const ir::Graph*>;

void check_graph(const ir::Graph& g, const Visible& outer, Diagnostics& out) {
  Visible here = outer;
  std::unordered_map<std::string, const ir::Edge*> defined;
  auto define = [&](const ir::Edge* e, const std::string& place) {
    if (!e || e->name.empty()) return;
    auto [it, fresh] = defined.emplace(e->name, e);
    if (!fresh && it->second != e) {  // an input with a default value is also an initializer
      out.error(place, "'" + e->name + "' is defined twice in this graph (names must be unique)");
      return;
    }
    here[e->name] = &g;
  };
  for (const ir::Edge* e : g.inputs) define(e, g.path());
  for (const ir::Edge* e : g.initializers) define(e, g.path());
  // A node's subgraphs see the names defined before the node, not its own outputs nor later
  // ones (as the ONNX checker walks a graph): a branch may reuse the name of a value the
  // enclosing graph only defines after it.
  for (const auto& n : g.nodes) {
    for (const auto& a : n->attributes) {
      if (a.g) check_graph(*a.g, here, out);
      for (const auto& sub : a.graphs) check_graph(*sub, here, out);
    }
    std::string place = g.path() + "/" + n->label();
    for (const ir::Edge* e : n->outputs) {
      if (!e) continue;
      auto it = outer.find(e->name);
      if (it != outer.end())
        out.error(place, "output '" + e->name + "' is already defined in the enclosing graph " +
                             it->second->path() +
                             "; a node output in a subgraph must not reuse an outer name");
      define(e, place);
    }
  }
}

}  // namespace

void check_names(const ir::Graph& graph, Diagnostics& out) { check_graph(graph, {}, out); }

}  // namespace bough::check
