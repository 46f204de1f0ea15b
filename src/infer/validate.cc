#include "infer/validate.h"

#include <algorithm>

namespace bough::infer {

Validation validate(const ir::Model& model, const ValidateOptions& options) {
  Validation v;
  v.diagnostics = check::check_model(model, options.check);
  // An operator bough lacks (Unsupported) leaves the structure sound: the rest is still
  // inferred, so that every other problem is listed too.
  const auto& found = v.diagnostics.all();
  const bool sound = std::none_of(found.begin(), found.end(), [](const check::Diagnostic& d) {
    return d.severity == check::Severity::Error && d.kind == ErrorKind::InvalidModel;
  });
  if (sound) v.types = infer_model(model, v.diagnostics, options.infer);
  return v;
}

}  // namespace bough::infer
