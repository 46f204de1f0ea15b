// Inlining a subgraph into its parent in place of the node that owns it: what fold-if does
// with a taken branch and single-trip-loop with a body run once. The subgraph's values
// move into the parent under names no other value of the model has, its captures become
// the outer values they read, its initializers move along, and subgraphs of the moved
// nodes are re-pointed at the moved values.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "ir/graph.h"
#include "passes/rewrite.h"

namespace bough::passes {

using EdgeMap = std::unordered_map<const ir::Edge*, ir::Edge*>;

class Inliner {
 public:
  explicit Inliner(const ir::Model& model) : names_(model) {}

  // Replaces the node g.nodes[at] by the nodes of its subgraph `sub`, then the nodes of
  // `after`. `bound` gives the parent value of each of sub's inputs. Output k of `sub`
  // becomes `targets[k]` (a parent edge no node produces yet; null when nothing needs it):
  // the sub node computing it produces it directly, under its name, and an output that is
  // an input, initializer, capture or repeated value is copied into it by an Identity.
  void replace_node(ir::Graph& g, size_t at, ir::Graph& sub, EdgeMap bound,
                    const std::vector<ir::Edge*>& targets,
                    std::vector<std::unique_ptr<ir::Node>> after = {});

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
