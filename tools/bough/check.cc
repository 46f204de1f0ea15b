// bough check MODEL [--json] [--allow-newer-opset] — report every problem: structure, types
// and shapes.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "bough/error.h"
#include "commands.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "options.h"

namespace bough::cli {

namespace {
namespace check_op {

int check_model(const std::string& path, bool json, const infer::ValidateOptions& options) {
  // What the reader refuses (unresolved names, cycles) stays the reader's error: reported by
  // main(), or with --json as the one diagnostic. I/O errors are never diagnostics.
  std::unique_ptr<ir::Model> model;
  try {
    model = read_model_file(path);
  } catch (const Error& e) {
    if (!json || e.kind() == ErrorKind::IO) throw;
    check::Diagnostics refused;
    std::string place = e.where().rfind(path, 0) == 0 ? e.where().substr(path.size()) : e.where();
    if (place.rfind(": ", 0) == 0) place = place.substr(2);
    if (e.kind() == ErrorKind::Unsupported)
      refused.unsupported(place, e.message());
    else
      refused.error(place, e.message());
    std::fputs(check::render_json(refused, path).c_str(), stdout);
    return kExitInvalid;
  }
  const check::Diagnostics found = infer::validate(*model, options).diagnostics;
  if (json) {
    std::fputs(check::render_json(found, path).c_str(), stdout);
  } else {
    std::fputs(check::render_text(found, path).c_str(), stderr);
    auto count = [](size_t n, const char* what) {
      return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
    };
    std::fprintf(found.has_errors() ? stderr : stdout, "%s: %s (%s, %s)\n", path.c_str(),
                 found.has_errors() ? "invalid" : "valid", count(found.errors(), "error").c_str(),
                 count(found.warnings(), "warning").c_str());
  }
  return found.has_errors() ? kExitInvalid : kExitOk;
}

}  // namespace check_op
}  // namespace

Command add_check(CLI::App& root) {
  using namespace check_op;
  CLI::App* app = root.add_subcommand(
      "check",
      "check the model's structure and types; list every problem found (stderr, or JSON on "
      "stdout); exit 1 when it is invalid");
  struct Options {
    std::string path;
    bool json = false;
    infer::ValidateOptions validate;
  };
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->path, "the model")->required();
  app->add_flag("--json", opt->json, "print the diagnostics as JSON on stdout");
  add_newer_opset_flag(app, &opt->validate.check.allow_newer_opset);
  return {app, [opt] { return check_model(opt->path, opt->json, opt->validate); }};
}

}  // namespace bough::cli
