#include "passes/readers.h"

namespace bough::passes {

const Readers::Reads* Readers::reads_of(const ir::Edge* e) const {
  if (!reads_) {
    reads_.emplace();
    for (const ir::Edge* out : graph_.outputs) (*reads_)[out].output = true;
    for (const auto& n : graph_.nodes) {
      for (const ir::Edge* in : n->implicit_inputs) (*reads_)[in].captured = true;
      for (const ir::Edge* in : n->inputs) {
        if (!in) continue;
        Reads& r = (*reads_)[in];
        ++r.inputs;
        r.last = n.get();
      }
    }
  }
  const auto it = reads_->find(e);
  return it == reads_->end() ? nullptr : &it->second;
}

bool Readers::only_by(const ir::Edge* e, const ir::Node& reader) const {
  return only_reader(e) == &reader;
}

ir::Node* Readers::only_reader(const ir::Edge* e) const {
  const Reads* r = reads_of(e);
  return r && r->inputs == 1 && !r->output && !r->captured ? r->last : nullptr;
}

bool Readers::read_only_as_inputs(const ir::Edge* e, int count) const {
  const Reads* r = reads_of(e);
  return r && r->inputs == count && !r->output && !r->captured;
}

bool Readers::is_output(const ir::Edge* e) const {
  const Reads* r = reads_of(e);
  return r && r->output;
}

}  // namespace bough::passes
