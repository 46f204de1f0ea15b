// What the passes share for rewriting the IR while keeping its invariants: a capture's
// name is its outer value's name (the ONNX writer refers to captures by name), an owner
// node's implicit_inputs are the outer values its subgraphs capture, and value names stay
// unique across the whole model.
#pragma once

#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "bough/tensor.h"
#include "ir/graph.h"

namespace bough::passes {

// The graphs a node's attributes hold.
std::vector<ir::Graph*> subgraphs(const ir::Node& node);

// Calls `fn` on the model's main graph and every graph nested in it, parents first
// (function bodies are left alone: their values are formal parameters).
void for_each_graph(ir::Model& model, const std::function<void(ir::Graph&)>& fn);

bool is_graph_output(const ir::Graph& graph, const ir::Edge* e);

// The value of `e` when it is a constant: an initializer (also one of an enclosing graph
// read through captures) or the output of a Constant node holding a tensor. Null otherwise.
const Tensor* constant_value(const ir::Edge* e);

// Whether `node` calls a function of the model (which may shadow an operator's name).
bool calls_local_function(const ir::Model& model, const ir::Node& node);

// Points capture `cap` at `outer` and renames it (and the captures nested below that read
// it) to the outer value's name.
void set_capture_outer(ir::Edge* cap, ir::Edge* outer);

// Makes every reader of `from` in `graph` read `to` instead: node inputs, graph outputs
// and the captures of nested subgraphs (a subgraph that already captures `to` reads that
// capture). `from` and `to` belong to `graph`.
void replace_uses(ir::Graph& graph, ir::Edge* from, ir::Edge* to);

// Removes the nodes in `doomed` from `graph`, keeping the others in order.
void erase_nodes(ir::Graph& graph, const std::unordered_set<const ir::Node*>& doomed);

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

}  // namespace bough::passes
