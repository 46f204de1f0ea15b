#include "check/diagnostics.h"

#include <algorithm>
#include <cstdio>

#include "util/json.h"
#include "util/printable.h"

namespace bough::check {

void Diagnostics::error(std::string place, std::string message) {
  items_.push_back(
      {Severity::Error, ErrorKind::InvalidModel, std::move(place), std::move(message)});
}

void Diagnostics::unsupported(std::string place, std::string message) {
  items_.push_back({Severity::Error, ErrorKind::Unsupported, std::move(place), std::move(message)});
}

void Diagnostics::warning(std::string place, std::string message) {
  items_.push_back(
      {Severity::Warning, ErrorKind::InvalidModel, std::move(place), std::move(message)});
}

size_t Diagnostics::errors() const {
  return static_cast<size_t>(std::count_if(items_.begin(), items_.end(), [](const Diagnostic& d) {
    return d.severity == Severity::Error;
  }));
}

std::string render_text(const Diagnostics& d, const std::string& model_path) {
  std::string out;
  for (const Diagnostic& x : d.all()) {
    // Places and messages hold the model's names: escaped as names, so that each
    // diagnostic stays one line whatever a name holds.
    out += util::printable_name(model_path);
    if (!x.place.empty()) out += ": " + util::printable_name(x.place);
    out += x.severity == Severity::Warning ? ": warning: " : ": ";
    out += util::printable_name(x.message) + "\n";
  }
  return out;
}

std::string render_json(const Diagnostics& d, const std::string& model_path) {
  std::string out = "{\"model\": " + util::json_string(model_path) +
                    ", \"valid\": " + (d.has_errors() ? "false" : "true") +
                    ", \"errors\": " + std::to_string(d.errors()) +
                    ", \"warnings\": " + std::to_string(d.warnings()) + ", \"diagnostics\": [";
  bool first = true;
  for (const Diagnostic& x : d.all()) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += "{\"severity\": ";
    if (x.severity == Severity::Warning)
      out += "\"warning\"";
    else
      out += x.kind == ErrorKind::Unsupported ? "\"error\", \"kind\": \"unsupported\""
                                              : "\"error\", \"kind\": \"invalid\"";
    out += ", \"place\": " + util::json_string(x.place) +
           ", \"message\": " + util::json_string(x.message) + "}";
  }
  return out + (first ? "]}\n" : "\n]}\n");
}

}  // namespace bough::check
