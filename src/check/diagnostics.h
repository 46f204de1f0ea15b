// What the checker found: every problem of a model, each with the place it concerns, so a
// user fixes them all in one round instead of one per run.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "bough/error.h"

namespace bough::check {

enum class Severity { Error, Warning };

struct Diagnostic {
  Severity severity = Severity::Error;
  // For errors: InvalidModel when the model breaks a rule, Unsupported when it is valid but
  // asks for what bough lacks (an operator it does not implement, a newer opset).
  ErrorKind kind = ErrorKind::InvalidModel;
  // A graph path such as `main/If "gate"/then_branch/Add "add_1"` (Graph::path() and
  // Node::label()); empty for the model as a whole.
  std::string place;
  // What was found and what was expected.
  std::string message;
};

class Diagnostics {
 public:
  void error(std::string place, std::string message);
  void unsupported(std::string place, std::string message);
  void warning(std::string place, std::string message);

  const std::vector<Diagnostic>& all() const { return items_; }
  size_t errors() const;
  size_t warnings() const { return items_.size() - errors(); }
  bool has_errors() const { return errors() != 0; }

 private:
  std::vector<Diagnostic> items_;
};

// One line per diagnostic: `model.onnx: main/If "gate": message`, warnings marked
// `warning:` after the place.
std::string render_text(const Diagnostics& d, const std::string& model_path);
// {"model": ..., "valid": ..., "errors": N, "warnings": N, "diagnostics": [{"severity":
// "error", "kind": "invalid", "place": ..., "message": ...}, ...]}; kind is "invalid" or
// "unsupported" for errors, absent for warnings.
std::string render_json(const Diagnostics& d, const std::string& model_path);

}  // namespace bough::check
