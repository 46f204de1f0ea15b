// What the passes share for rewriting the IR while keeping its invariants: a capture's
// name is its outer value's name (the ONNX writer refers to captures by name), an owner
// node's implicit_inputs are the outer values its subgraphs capture, and value names stay
// unique across the whole model.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bough/tensor.h"
#include "ir/graph.h"
#include "ir/replace_uses.h"

namespace bough::passes {

// Rewiring readers (ir/replace_uses.h), which every pass does.
using ir::EdgeMap;
using ir::rename_captures;
using ir::replace_uses;
using ir::subgraphs;

// Calls `fn` on the model's main graph and every graph nested in it, parents first
// (function bodies are left alone: their values are formal parameters).
void for_each_graph(ir::Model& model, const std::function<void(ir::Graph&)>& fn);

// The value of `e` when it is a constant: an initializer (also one of an enclosing graph
// read through captures) or the output of a Constant node holding a tensor. Null otherwise.
const Tensor* constant_value(const ir::Edge* e);

// Whether `node` calls a function of the model (which may shadow an operator's name).
bool calls_local_function(const ir::Model& model, const ir::Node& node);

// Removes the nodes in `doomed` from `graph`, keeping the others in order.
void erase_nodes(ir::Graph& graph, const std::unordered_set<const ir::Node*>& doomed);

// Changes to a graph's node list that a pass decides while it walks the list, made in one
// sweep at the end (inserting into or erasing from the vector one node at a time is
// quadratic on a graph of many rewrites). New nodes belong to the graph from the start.
class NodeEdits {
 public:
  explicit NodeEdits(ir::Graph& g) : g_(g) {}
  // A new node of `op_type` named `name`, to be placed just before `anchor`.
  ir::Node* add_before(const ir::Node& anchor, const std::string& op_type, const std::string& name);
  // Places the node `n` (of this graph) just before `anchor`, after those placed there before.
  void put_before(const ir::Node& anchor, std::unique_ptr<ir::Node> n);
  void remove(const ir::Node& n) { removed_.insert(&n); }
  bool removed(const ir::Node& n) const { return removed_.count(&n) > 0; }
  // Makes the changes; the number of nodes removed.
  int apply();

 private:
  ir::Graph& g_;
  std::unordered_map<const ir::Node*, std::vector<std::unique_ptr<ir::Node>>> before_;
  std::unordered_set<const ir::Node*> removed_;
};

// The value names in use anywhere in a model, for naming moved values without collisions.
// Counted at the first claim (a pass that renames nothing never walks the model for them).
class NameSet {
 public:
  explicit NameSet(const ir::Model& model) : model_(model) {}
  // Counts the names now if not yet: claim() must see the value it names, so a caller about
  // to detach that value from the model calls this first.
  void count();
  // `name` when no other value of the model has it, else the first free `name_1`,
  // `name_2`, ...; the name returned is taken from then on.
  std::string claim(const std::string& name);
  // Like claim, for a new value beside the one named `name` (which stays): never `name`
  // itself when a value has it.
  std::string claim_new(const std::string& name);

 private:
  void add(const ir::Graph& graph);
  int& uses(const std::string& name) {
    count();
    return count_[name];
  }

  const ir::Model& model_;
  bool counted_ = false;
  std::unordered_map<std::string, int> count_;
};

// A new initializer of `g` holding `value`, named after `name` (claimed from `names`).
ir::Edge* add_initializer(ir::Graph& g, NameSet& names, const std::string& name, Tensor value);

}  // namespace bough::passes
