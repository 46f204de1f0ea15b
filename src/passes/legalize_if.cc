// legalize-if (opt-in, for repair): an If that carries payload inputs besides its condition,
// with branches declaring formal inputs for them — what hand-written graphs and some
// exporters produce, and what the spec and every conforming tool reject — is rewritten into
// the spec form: the node keeps only the condition, and each branch input becomes a capture
// of the outer value it was bound to (renamed to it, with the captures nested below).
// Binding: a branch declaring as many inputs as there are payloads takes them in order; a
// branch declaring fewer takes, for each input, the payload of the same name, else the one
// at its position.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "passes/pass.h"
#include "passes/rewrite.h"

namespace bough::passes {

namespace {

ir::Edge* bound_payload(const std::vector<ir::Edge*>& payloads, const ir::Graph& branch, size_t i) {
  if (branch.inputs.size() < payloads.size()) {
    const std::string& name = branch.inputs[i]->name;
    for (ir::Edge* p : payloads)
      if (p && p->name == name) return p;
  }
  return i < payloads.size() ? payloads[i] : nullptr;
}

// The outer value each formal input of `branch` is bound to; empty when one has none.
std::vector<ir::Edge*> bindings(const std::vector<ir::Edge*>& payloads, const ir::Graph& branch) {
  std::vector<ir::Edge*> outers;
  for (size_t i = 0; i < branch.inputs.size(); ++i) {
    ir::Edge* outer = bound_payload(payloads, branch, i);
    if (!outer) return {};
    outers.push_back(outer);
  }
  return outers;
}

// Turns the branch's formal inputs into captures of `outers`.
void legalize_branch(ir::Node& n, ir::Graph& branch, const std::vector<ir::Edge*>& outers) {
  std::vector<ir::Edge*> formal = std::move(branch.inputs);
  branch.inputs.clear();
  std::unordered_map<const ir::Edge*, ir::Edge*> capture_of;  // outer value -> capture
  for (ir::Edge* c : branch.captures) capture_of.emplace(c->outer, c);
  std::unordered_set<const ir::Edge*> listed(n.implicit_inputs.begin(), n.implicit_inputs.end());
  EdgeMap merged;  // an input -> the capture of its outer value the branch had
  std::unordered_set<const ir::Edge*> renamed;
  for (size_t i = 0; i < formal.size(); ++i) {
    ir::Edge* input = formal[i];
    ir::Edge* outer = outers[i];
    input->data.reset();  // a default value no longer applies
    if (auto [same, added] = capture_of.emplace(outer, input); !added) {
      merged[input] = same->second;
    } else {
      input->origin = ir::Edge::Origin::Capture;
      input->outer = outer;
      branch.captures.push_back(input);
      if (input->name != outer->name) renamed.insert(input);
    }
    if (listed.insert(outer).second) n.implicit_inputs.push_back(outer);
  }
  const std::unordered_set<const ir::Edge*> formal_set(formal.begin(), formal.end());
  std::erase_if(branch.initializers, [&](const ir::Edge* e) { return formal_set.count(e) > 0; });
  rename_captures(branch, renamed);
  replace_uses(branch, merged);
}

}  // namespace

int legalize_if(ir::Model& model) {
  // Every If's bindings are decided before any is rewritten: rewriting renames a branch's
  // inputs to the outer values they capture, and an If nested in that branch binds by the
  // names as the file wrote them.
  struct Repair {
    ir::Node* node;
    std::vector<std::pair<ir::Graph*, std::vector<ir::Edge*>>> branches;
  };
  std::vector<Repair> repairs;
  for_each_graph(model, [&](ir::Graph& g) {
    for (const auto& n : g.nodes) {
      if (n->op_type != "If" || !n->domain.empty() || n->inputs.size() < 2) continue;
      std::vector<ir::Edge*> payloads(n->inputs.begin() + 1, n->inputs.end());
      Repair repair{n.get(), {}};
      for (ir::Graph* branch : subgraphs(*n)) {
        repair.branches.emplace_back(branch, bindings(payloads, *branch));
        if (repair.branches.back().second.size() != branch->inputs.size()) break;
      }
      const auto& last = repair.branches;
      if (last.empty() || last.back().second.size() != last.back().first->inputs.size())
        continue;  // an input bound to nothing: left for the check to report
      repairs.push_back(std::move(repair));
    }
  });
  for (Repair& r : repairs) {
    for (auto& [branch, outers] : r.branches) legalize_branch(*r.node, *branch, outers);
    r.node->inputs.resize(1);
  }
  return static_cast<int>(repairs.size());
}

}  // namespace bough::passes
