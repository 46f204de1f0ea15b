// Single static assignment: every value name is defined once in its graph, and a node
// output of a nested graph does not reuse a name visible from an enclosing graph (ONNX IR,
// "Graphs": "a node output name MUST be distinct from the names from the outer scopes that
// are visible in the nested subgraph"). A subgraph's own inputs and initializers may shadow
// outer names; only node outputs may not, as in the IR spec and the ONNX checker. Names
// are collected in node order, which the reader has made topological.
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "check/rules.h"

namespace bough::check {

namespace {

// The names visible at the point of the walk, each with the innermost graph defining it.
// One table for the whole walk, with an undo log, so that entering a subgraph copies
// nothing: a model with a thousand nested Ifs stays linear.
class Scopes {
 public:
  const ir::Graph* definer(const std::string& name) const {
    auto it = visible_.find(name);
    return it == visible_.end() ? nullptr : it->second;
  }
  void define(const std::string& name, const ir::Graph* g) {
    auto [it, fresh] = visible_.try_emplace(name, g);
    undo_.emplace_back(name, fresh ? nullptr : it->second);
    it->second = g;
  }
  size_t mark() const { return undo_.size(); }
  // Forgets every name defined since `mark`.
  void rollback(size_t mark) {
    while (undo_.size() > mark) {
      auto& [name, previous] = undo_.back();
      if (previous)
        visible_[name] = previous;
      else
        visible_.erase(name);
      undo_.pop_back();
    }
  }

 private:
  std::unordered_map<std::string, const ir::Graph*> visible_;
  std::vector<std::pair<std::string, const ir::Graph*>> undo_;
};

void check_graph(const ir::Graph& g, Scopes& scopes, Diagnostics& out) {
  const size_t entry = scopes.mark();
  const std::string path = g.path();
  std::unordered_map<std::string, const ir::Edge*> defined;
  auto define = [&](const ir::Edge* e, const ir::Node* n) {
    if (!e || e->name.empty()) return;
    auto [it, fresh] = defined.emplace(e->name, e);
    if (!fresh && it->second != e) {  // an input with a default value is also an initializer
      out.error(n ? path + "/" + n->label() : path,
                "'" + e->name + "' is defined twice in this graph (names must be unique)");
      return;
    }
    scopes.define(e->name, &g);
  };
  for (const ir::Edge* e : g.inputs) define(e, nullptr);
  for (const ir::Edge* e : g.initializers) {
    // An input with a default value is an initializer of the same name in the main graph
    // only: a subgraph's inputs are bound by its node, so a name there is defined twice.
    if (g.parent && defined.count(e->name))
      out.error(path, "'" + e->name +
                          "' is both an input and an initializer of this subgraph "
                          "(names must be unique; only the main graph's inputs take defaults)");
    define(e, nullptr);
  }
  // A node's subgraphs see the names defined before the node, not its own outputs nor later
  // ones (as the ONNX checker walks a graph): a branch may reuse the name of a value the
  // enclosing graph only defines after it.
  for (const auto& n : g.nodes) {
    for (const auto& a : n->attributes) {
      if (a.g) check_graph(*a.g, scopes, out);
      for (const auto& sub : a.graphs) check_graph(*sub, scopes, out);
    }
    for (const ir::Edge* e : n->outputs) {
      if (!e) continue;
      const ir::Graph* outer = defined.count(e->name) ? nullptr : scopes.definer(e->name);
      if (outer)
        out.error(path + "/" + n->label(),
                  "output '" + e->name + "' is already defined in the enclosing graph " +
                      outer->path() + "; a node output in a subgraph must not reuse an outer name");
      define(e, n.get());
    }
  }
  scopes.rollback(entry);
}

}  // namespace

void check_names(const ir::Graph& graph, Diagnostics& out) {
  Scopes scopes;
  check_graph(graph, scopes, out);
}

}  // namespace bough::check
