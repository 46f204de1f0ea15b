// Inlining a subgraph into its parent in place of the node that owns it: what fold-if does
// with a taken branch and single-trip-loop with a body run once. The subgraph's values
// move into the parent under names no other value of the model has, its captures become
// the outer values they read, its initializers move along, and subgraphs of the moved
// nodes are re-pointed at the moved values.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "ir/graph.h"
#include "passes/rewrite.h"

namespace bough::passes {

using Nodes = std::vector<std::unique_ptr<ir::Node>>;

class Inliner {
 public:
  explicit Inliner(const ir::Model& model) : names_(model) {}

  // Rebuilds g.nodes in one walk: each node `wanted` picks gives way to the nodes
  // `inline_one` (which takes it) returns, and those are offered in turn (an If of a branch
  // inlined may fold too); the others stay in order. The number of nodes replaced.
  int expand(ir::Graph& g, const std::function<bool(const ir::Node&)>& wanted,
             const std::function<Nodes(std::unique_ptr<ir::Node>)>& inline_one);

  // The nodes that replace `owner` (a node of `g`, whose subgraph `sub` is): the nodes of
  // `sub`, then those of `after`. `bound` gives the parent value of each of sub's inputs.
  // Output k of `sub` becomes `targets[k]` (a parent edge no node produces yet; null when
  // nothing needs it): the sub node computing it produces it directly, under its name, and an
  // output that is an input, initializer, capture or repeated value is copied into it by an
  // Identity.
  Nodes inline_node(ir::Graph& g, std::unique_ptr<ir::Node> owner, ir::Graph& sub, EdgeMap bound,
                    const std::vector<ir::Edge*>& targets, Nodes after = {});

  // A new initializer of `g` holding `value`, named after `name`.
  ir::Edge* add_initializer(ir::Graph& g, const std::string& name, const Tensor& value);
  // A new node output of `g` (its producer still to set), named after `name`.
  ir::Edge* add_value(ir::Graph& g, const std::string& name);
  // A new node of `g`, not yet placed in g.nodes.
  static std::unique_ptr<ir::Node> make_node(ir::Graph& g, const std::string& op_type,
                                             std::vector<ir::Edge*> inputs,
                                             std::vector<ir::Edge*> outputs);

 private:
  ir::Edge* moved_edge(ir::Graph& g, const ir::Edge& from, ir::Edge::Origin origin);
  void move_node(ir::Graph& g, ir::Node& n, EdgeMap& map);

  NameSet names_;
};

}  // namespace bough::passes
