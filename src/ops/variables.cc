#include "ops/variables.h"

#include "bough/error.h"

namespace bough::ops {

namespace {
thread_local Variables* current_variables = nullptr;
}  // namespace

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

Variables* Variables::current() { return current_variables; }

VariablesScope::VariablesScope(Variables* v) : previous_(current_variables) {
  current_variables = v;
}

VariablesScope::~VariablesScope() { current_variables = previous_; }

Variables::Entry& VariableRef::get(const char* op) {
  Variables* now = Variables::current();
  if (!now)
    fail(ErrorKind::Unsupported, "",
         std::string(op) + " of variable '" + id_ +
             "' keeps state between runs, which only a Session holds");
  if (now != bound_) {
    entry_ = &now->at(id_);
    bound_ = now;
  }
  return *entry_;
}

bool is_stateful_op(std::string_view domain, std::string_view op) {
  return domain == "org.openvinotoolkit" && (op == "ReadValue" || op == "Assign");
}

}  // namespace bough::ops
