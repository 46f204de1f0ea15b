// fold-if: an If whose condition is constant — an initializer or Constant, also one of an
// enclosing graph read through captures, or a value fold-constants made constant — is
// replaced by its taken branch, inlined where the If stood (passes/inline.h): a branch
// output computed in the branch takes over the If's output and its name; one that is an
// initializer or an outer value becomes an Identity of it. Ifs nested in the taken branch
// land in the parent and fold in turn; Ifs in Loop and Scan bodies fold too.
#include "passes/inline.h"
#include "passes/pass.h"

namespace bough::passes {

namespace {

// The branch an If will take, when its condition is known; null otherwise.
ir::Graph* taken_branch(const ir::Node& n) {
  if (n.op_type != "If" || !n.domain.empty() || n.inputs.empty() || !n.inputs[0]) return nullptr;
  const Tensor* cond = constant_value(n.inputs[0]);
  if (!cond || cond->type() != ElemType::Bool || cond->numel() != 1) return nullptr;
  const ir::Attribute* branch = n.attr(cond->data<bool>()[0] ? "then_branch" : "else_branch");
  if (!branch || !branch->g) return nullptr;
  ir::Graph& g = *branch->g;
  // A branch with formal inputs breaks the spec (legalize-if's business, not ours).
  if (!g.inputs.empty() || g.outputs.size() != n.outputs.size()) return nullptr;
  return &g;
}

}  // namespace

int fold_if(ir::Model& model) {
  Inliner inliner(model);
  int folded = 0;
  for_each_graph(model, [&](ir::Graph& g) {
    folded += inliner.expand(
        g, [](const ir::Node& n) { return taken_branch(n) != nullptr; },
        [&](std::unique_ptr<ir::Node> n) {
          ir::Graph& branch = *taken_branch(*n);
          const std::vector<ir::Edge*> targets = n->outputs;
          return inliner.inline_node(g, std::move(n), branch, {}, targets);
        });
  });
  return folded;
}

}  // namespace bough::passes
