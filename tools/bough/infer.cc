// bough infer MODEL [-o OUT.onnx] [--allow-newer-opset] — the type of every value, as
// inference finds it: printed, or written into a copy of the model as value_info.
#include <cstdio>
#include <string>

#include "commands.h"
#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "util/files.h"

namespace bough::cli {

namespace {

constexpr const char* kUsage = "usage: bough infer MODEL [-o OUT.onnx] [--allow-newer-opset]\n";

void print_values(const ir::Graph& g) {
  const std::string path = g.path();
  auto line = [&](const ir::Edge* e) {
    if (e)
      std::printf("%s/%s: %s\n", path.c_str(), e->name.c_str(), ir::to_string(e->type).c_str());
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

}  // namespace

int cmd_infer(const Args& args) {
  std::string path, out;
  infer::ValidateOptions options;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "-o" && i + 1 < args.size()) {
      out = args[++i];
    } else if (args[i] == "--allow-newer-opset") {
      options.check.allow_newer_opset = true;
    } else if (path.empty() && args[i].rfind("-", 0) != 0) {
      path = args[i];
    } else {
      std::fputs(kUsage, stderr);
      return kExitUsage;
    }
  }
  if (path.empty()) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  if (!out.empty() && same_file(path, out)) {
    std::fprintf(stderr, "bough: error: %s: infer never overwrites its input\n", out.c_str());
    return kExitUsage;
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

}  // namespace bough::cli
