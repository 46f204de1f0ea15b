// fold-identity: readers of an Identity's output read its input instead, and the Identity
// goes. An Identity whose output is a graph output stays: that name is the graph's
// interface (or a branch/body result position, which may not be an outer value in every
// consumer's reading).
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

int fold_in(ir::Graph& g) {
  std::unordered_set<const ir::Node*> folded;
  for (const auto& n : g.nodes) {
    if (n->op_type != "Identity" || !n->domain.empty() || n->inputs.size() != 1 ||
        n->outputs.size() != 1 || !n->inputs[0] || !n->outputs[0] ||
        is_graph_output(g, n->outputs[0]))
      continue;
    replace_uses(g, n->outputs[0], n->inputs[0]);
    folded.insert(n.get());
  }
  erase_nodes(g, folded);
  return static_cast<int>(folded.size());
}

}  // namespace

int fold_identity(ir::Model& model) {
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) { folded += fold_in(g); });
  return folded;
}

}  // namespace bough::passes
