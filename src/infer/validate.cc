#include "infer/validate.h"

namespace bough::infer {

Validation validate(const ir::Model& model, const ValidateOptions& options) {
  Validation v;
  v.diagnostics = check::check_model(model, options.check);
  if (!v.diagnostics.has_errors()) v.types = infer_model(model, v.diagnostics, options.infer);
  return v;
}

}  // namespace bough::infer
