#include "ops/variables.h"

#include "bough/error.h"

namespace bough::ops {

void Variables::commit() {
  for (auto& [id, e] : entries_) {
    if (!e.written) continue;
    e.value = std::move(e.pending);
    e.pending = Value();
    e.set = true;
    e.written = false;
  }
}

void Variables::discard() {
  for (auto& [id, e] : entries_) {
    e.pending = Value();
    e.written = false;
  }
}

void Variables::reset() {
  for (auto& [id, e] : entries_) e = Entry();
}

Variables::Entry& VariableRef::get(RunContext& ctx, const char* op) {
  if (!ctx.variables)
    fail(ErrorKind::Unsupported, "",
         std::string(op) + " of variable '" + id_ +
             "' keeps state between runs, which only a Session holds");
  if (ctx.variables != bound_) {
    entry_ = &ctx.variables->at(id_);
    bound_ = ctx.variables;
  }
  return *entry_;
}

}  // namespace bough::ops
