// The variables of a stateful model (OpenVINO's ReadValue and Assign): values one run leaves
// for the next. A Session owns them; for the length of a run they are the thread's current
// variables (VariablesScope, as ir::MemoryLimitScope sets a run's memory limit), where the
// kernels find them: kernels keep none of their own. A run's Assigns take effect when it
// succeeds (commit), so a run that fails leaves the variables as they were.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include "bough/value.h"

namespace bough::ops {

class Variables {
 public:
  struct Entry {
    Value value;           // what ReadValue returns while `set`
    bool set = false;      // false before the first Assign and after a reset
    Value pending;         // what this run's Assign wrote
    bool written = false;  // whether it wrote
  };

  // The variable `id`, made unset the first time; the entry's address never changes.
  Entry& at(const std::string& id) { return entries_[id]; }
  // After a run that succeeded: what each Assign wrote becomes the variable's value.
  void commit();
  // After a run that failed: what Assigns wrote is forgotten.
  void discard();
  // Every variable back to unset: the next ReadValue returns its initial value.
  void reset();

  // The variables of the run in progress on this thread (null outside a session's run).
  static Variables* current();

 private:
  std::unordered_map<std::string, Entry> entries_;
};

// Makes `v` this thread's current variables until the end of the scope (the enclosing
// scope's come back after it).
class VariablesScope {
 public:
  explicit VariablesScope(Variables* v);
  ~VariablesScope();
  VariablesScope(const VariablesScope&) = delete;
  VariablesScope& operator=(const VariablesScope&) = delete;

 private:
  Variables* previous_;
};

// A kernel's handle on its variable: found in the run's Variables once, then kept (a plan
// belongs to one session, whose Variables never move), so a run looks no name up.
class VariableRef {
 public:
  explicit VariableRef(std::string id) : id_(std::move(id)) {}
  const std::string& id() const { return id_; }
  // The entry in this run's variables; `op` names the kernel in the error outside a session.
  Variables::Entry& get(const char* op);

 private:
  std::string id_;
  Variables* bound_ = nullptr;
  Variables::Entry* entry_ = nullptr;
};

// Whether the operator reads or writes a variable (org.openvinotoolkit ReadValue, Assign):
// dead-code removal keeps an Assign though nothing reads its output. (Folding, hoisting and
// evaluation before running leave every operator of a non-ONNX domain alone already.)
bool is_stateful_op(std::string_view domain, std::string_view op);

}  // namespace bough::ops
