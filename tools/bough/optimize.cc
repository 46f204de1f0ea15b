// bough optimize IN OUT [--passes a,b,c] [--repair] [--list] — run graph passes over a model
// and write the result as ONNX. IN is never overwritten; OUT is written through a temporary
// file and a rename. The model is checked before the passes (after the repairs, with
// --repair) and again after them.
#include <cstdio>

#include "bough/error.h"
#include "commands.h"
#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "passes/pass.h"
#include "util/files.h"

namespace bough::cli {

namespace {

constexpr const char* kUsage =
    "usage: bough optimize IN OUT.onnx [--passes NAME,NAME,...] [--repair]\n"
    "       bough optimize --list\n"
    "  runs the passes (default: the basic pipeline sessions run) until nothing changes;\n"
    "  --repair first rewrites what the check refuses but has one clear meaning (legalize-if)\n";

// Throws InvalidModel with the first error of the check, naming how many more there are.
void require_valid(const ir::Model& model, const std::string& when) {
  infer::Validation checked = infer::validate(model);
  if (!checked.diagnostics.has_errors()) return;
  for (const auto& d : checked.diagnostics.all())
    if (d.severity == check::Severity::Error)
      fail(ErrorKind::InvalidModel, d.place.empty() ? model.path : model.path + ": " + d.place,
           when + d.message + " (`bough check` lists every problem)");
}

bool parse_pipeline(const std::string& list, std::vector<const passes::Pass*>* out) {
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    const passes::Pass* p = passes::find_pass(name);
    if (!p) {
      std::fprintf(stderr, "bough optimize: no pass named '%s' (--list shows them)\n",
                   name.c_str());
      return false;
    }
    out->push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return true;
}

}  // namespace

int cmd_optimize(const Args& args) {
  std::vector<std::string> paths;
  std::vector<const passes::Pass*> pipeline;
  bool repair = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--list") {
      for (const passes::Pass& p : passes::all_passes())
        std::printf("%-16s %s%s\n", std::string(p.name).c_str(), std::string(p.description).c_str(),
                    p.basic ? "" : " [not in basic]");
      return kExitOk;
    }
    if (args[i] == "--repair") {
      repair = true;
    } else if (args[i] == "--passes" && i + 1 < args.size()) {
      if (!parse_pipeline(args[++i], &pipeline)) return kExitUsage;
    } else if (args[i].rfind("--", 0) == 0) {
      std::fprintf(stderr, "bough optimize: unexpected argument '%s'\n%s", args[i].c_str(), kUsage);
      return kExitUsage;
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.size() != 2) {
    std::fputs(kUsage, stderr);
    return kExitUsage;
  }
  const std::string &in = paths[0], &out = paths[1];
  if (out.size() < 5 || out.compare(out.size() - 5, 5, ".onnx") != 0) {
    std::fprintf(stderr, "bough: error: %s: the output must end in .onnx\n", out.c_str());
    return kExitUsage;
  }
  if (same_file(in, out)) {
    std::fprintf(stderr, "bough: error: %s: optimize never overwrites its input\n", out.c_str());
    return kExitUsage;
  }
  if (pipeline.empty()) pipeline = passes::basic_pipeline();
  auto model = read_model_file(in);
  if (repair) {
    passes::PipelineReport repairs =
        passes::run_pipeline(*model, {passes::find_pass("legalize-if")}, 1);
    std::printf("repaired: %d If%s\n", repairs.passes[0].changes,
                repairs.passes[0].changes == 1 ? "" : "s");
  }
  require_valid(*model, "");
  passes::PipelineReport report = passes::run_pipeline(*model, pipeline);
  require_valid(*model, "after the passes (a bug in bough): ");
  for (const passes::PassCount& p : report.passes)
    std::printf("%-16s %d change%s (%.1f ms)\n", p.name.c_str(), p.changes,
                p.changes == 1 ? "" : "s", p.seconds * 1e3);
  std::printf("%d round%s\n", report.rounds, report.rounds == 1 ? "" : "s");
  onnx::write_model_file(*model, out);
  return kExitOk;
}

}  // namespace bough::cli
