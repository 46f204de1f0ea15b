#include "check/first_error.h"

namespace bough::check {

void throw_first_error(const Diagnostics& found, const std::string& model_path,
                       std::string_view lister, std::string_view prefix) {
  if (!found.has_errors()) return;
  const Diagnostic* first = nullptr;
  for (const Diagnostic& d : found.all())
    if (d.severity == Severity::Error &&
        (!first || (first->kind != ErrorKind::InvalidModel && d.kind == ErrorKind::InvalidModel)))
      first = &d;
  const size_t others = found.errors() - 1;
  const std::string more = others == 0 ? ""
                                       : " (and " + std::to_string(others) + " more error" +
                                             (others == 1 ? "" : "s") + "; " + std::string(lister) +
                                             " lists them)";
  fail(first->kind, first->place.empty() ? model_path : model_path + ": " + first->place,
       std::string(prefix) + first->message + more);
}

}  // namespace bough::check
