// bough infer MODEL [-o OUT.onnx] [--allow-newer-opset] — the type of every value, as
// inference finds it: printed, or written into a copy of the model as value_info.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "options.h"
#include "util/files.h"
#include "util/printable.h"

namespace bough::cli {

namespace {
namespace infer_op {

void print_values(const ir::Graph& g) {
  const std::string path = g.path();
  auto line = [&](const ir::Edge* e) {
    if (e)
      std::printf("%s/%s: %s\n", util::printable_name(path).c_str(),
                  util::printable_name(e->name).c_str(), ir::to_string(e->type).c_str());
  };
  for (const ir::Edge* e : g.inputs) line(e);
  for (const ir::Edge* e : g.initializers)
    if (e->origin == ir::Edge::Origin::Initializer) line(e);
  for (const auto& n : g.nodes) {
    for (const ir::Edge* e : n->outputs) line(e);
    for (const auto& a : n->attributes) {
      if (a.g) print_values(*a.g);
      for (const auto& sub : a.graphs) print_values(*sub);
    }
  }
}

int infer_types(const std::string& path, const std::string& out,
                const infer::ValidateOptions& options) {
  if (!out.empty() && same_file(path, out)) {
    return usage_error(out + ": infer never overwrites its input");
  }
  auto model = read_model_file(path);
  infer::Validation v = infer::validate(*model, options);
  std::fputs(check::render_text(v.diagnostics, path).c_str(), stderr);
  if (v.diagnostics.has_errors()) return kExitInvalid;
  infer::annotate(*model, v.types);
  if (out.empty()) {
    print_values(*model->graph);
    return kExitOk;
  }
  onnx::write_model_file(*model, out);
  return kExitOk;
}

}  // namespace infer_op
}  // namespace

Command add_infer(CLI::App& root) {
  using namespace infer_op;
  CLI::App* app = root.add_subcommand(
      "infer",
      "print the inferred type of every value, or write the model with them as value_info");
  struct Options {
    std::string path, out;
    infer::ValidateOptions validate;
  };
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->path, "the model")->required();
  app->add_option("-o,--output", opt->out,
                  "write the model with the inferred types as value_info to this .onnx file "
                  "instead of printing them");
  add_newer_opset_flag(app, &opt->validate.check.allow_newer_opset);
  return {app, [opt] { return infer_types(opt->path, opt->out, opt->validate); }};
}

}  // namespace bough::cli
