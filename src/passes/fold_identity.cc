// fold-identity: readers of an Identity's output read its input instead, and the Identity
// goes. An Identity whose output is a graph output stays: that name is the graph's
// interface (or a branch/body result position, which may not be an outer value in every
// consumer's reading). All of a graph's Identities fold in one walk of it: a chain of them
// maps each output to the chain's first input.
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

int fold_in(ir::Graph& g) {
  const std::unordered_set<const ir::Edge*> outputs(g.outputs.begin(), g.outputs.end());
  EdgeMap source;  // an Identity's output -> the value it copies, through any chain
  std::unordered_set<const ir::Node*> folded;
  for (const auto& n : g.nodes) {
    if (n->op_type != "Identity" || !n->domain.empty() || n->inputs.size() != 1 ||
        n->outputs.size() != 1 || !n->inputs[0] || !n->outputs[0] || outputs.count(n->outputs[0]))
      continue;
    const auto earlier = source.find(n->inputs[0]);
    source[n->outputs[0]] = earlier == source.end() ? n->inputs[0] : earlier->second;
    folded.insert(n.get());
  }
  replace_uses(g, source);
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
