// dead-code: whatever no graph output needs goes — nodes (an If, Loop or Scan as well: a
// Loop always terminates, so dropping an unused one changes nothing), initializers,
// captures (and so the owner's implicit inputs), and If outputs nothing reads (with the
// branch outputs that fed them). Graph inputs stay: they are the model's interface, and so
// do stateful nodes (an OpenVINO Assign): what they write, a later run reads.
#include <algorithm>

#include "ops/variables.h"
#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

class Sweeper {
 public:
  // Sweeps `g`, whose outputs are all needed; returns what it removed.
  int graph(ir::Graph& g) {
    int removed = 0;
    std::unordered_set<const ir::Edge*> needed(g.outputs.begin(), g.outputs.end());
    std::unordered_set<const ir::Node*> dead;
    for (auto it = g.nodes.rbegin(); it != g.nodes.rend(); ++it) {
      ir::Node& n = **it;
      if (!ops::is_stateful_op(n.domain, n.op_type) &&
          std::none_of(n.outputs.begin(), n.outputs.end(),
                       [&](const ir::Edge* e) { return e && needed.count(e); })) {
        dead.insert(&n);
        continue;
      }
      if (n.op_type == "If" && n.domain.empty()) removed += drop_unused_outputs(n, needed);
      for (ir::Graph* sub : subgraphs(n)) removed += graph(*sub);
      refresh_implicit_inputs(n);
      needed.insert(n.inputs.begin(), n.inputs.end());
      needed.insert(n.implicit_inputs.begin(), n.implicit_inputs.end());
    }
    removed += static_cast<int>(dead.size());
    erase_nodes(g, dead);
    removed += static_cast<int>(std::erase_if(g.initializers, [&](const ir::Edge* e) {
      return e->origin == ir::Edge::Origin::Initializer && !needed.count(e);
    }));
    removed += static_cast<int>(
        std::erase_if(g.captures, [&](const ir::Edge* e) { return !needed.count(e); }));
    return removed;
  }

 private:
  // An If output nothing reads leaves the node, and both branches stop computing it.
  static int drop_unused_outputs(ir::Node& n, const std::unordered_set<const ir::Edge*>& needed) {
    std::vector<bool> kept(n.outputs.size());
    for (size_t k = 0; k < n.outputs.size(); ++k)
      kept[k] = n.outputs[k] && needed.count(n.outputs[k]);
    const int dropped = static_cast<int>(std::count(kept.begin(), kept.end(), false));
    if (dropped == 0) return 0;
    keep_only(n.outputs, kept);
    for (ir::Graph* b : subgraphs(n)) keep_only(b->outputs, kept);
    for (size_t k = 0; k < n.outputs.size(); ++k)
      n.outputs[k]->producer_index = static_cast<int>(k);
    return dropped;
  }

  // Keeps the entries of `v` that `kept` marks (and those past its end).
  static void keep_only(std::vector<ir::Edge*>& v, const std::vector<bool>& kept) {
    size_t to = 0;
    for (size_t k = 0; k < v.size(); ++k)
      if (k >= kept.size() || kept[k]) v[to++] = v[k];
    v.resize(to);
  }

  // The outer values the node's subgraphs still capture, in their old order.
  static void refresh_implicit_inputs(ir::Node& n) {
    std::unordered_set<const ir::Edge*> read;
    for (const ir::Graph* sub : subgraphs(n))
      for (const ir::Edge* c : sub->captures) read.insert(c->outer);
    std::erase_if(n.implicit_inputs, [&](const ir::Edge* e) { return !read.count(e); });
  }
};

}  // namespace

int dead_code(ir::Model& model) {
  if (!model.graph) return 0;
  return Sweeper().graph(*model.graph);
}

}  // namespace bough::passes
