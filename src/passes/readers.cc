#include "passes/readers.h"

namespace bough::passes {

Readers::Readers(const ir::Graph& g) : graph_(g) {
  for (const ir::Edge* e : g.outputs) reads_[e].output = true;
  for (const auto& n : g.nodes) {
    for (const ir::Edge* e : n->implicit_inputs) reads_[e].captured = true;
    for (const ir::Edge* e : n->inputs) {
      if (!e) continue;
      Reads& r = reads_[e];
      ++r.inputs;
      r.last = n.get();
    }
  }
}

bool Readers::only_by(const ir::Edge* e, const ir::Node& reader) const {
  const auto it = reads_.find(e);
  if (it == reads_.end()) return false;
  const Reads& r = it->second;
  return r.inputs == 1 && !r.output && !r.captured && r.last == &reader;
}

bool Readers::is_output(const ir::Edge* e) const {
  const auto it = reads_.find(e);
  return it != reads_.end() && it->second.output;
}

}  // namespace bough::passes
