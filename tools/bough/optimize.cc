// bough optimize IN OUT [--passes a,b,c] [--repair] [--list] — run graph passes over a model
// and write the result as ONNX. IN is never overwritten; OUT is written through a temporary
// file and a rename. The model is checked before the passes (after the repairs, with
// --repair) and again after them, by the pipeline driver sessions use (passes/pipeline.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "bough/error.h"
#include "commands.h"
#include "formats/onnx/writer.h"
#include "formats/read_model.h"
#include "passes/pipeline.h"
#include "util/files.h"

namespace bough::cli {

namespace {
namespace optimize_op {

// The passes named in a comma-separated list; empty (after a message) when one is unknown.
std::vector<const passes::Pass*> parse_pipeline(const std::string& list) {
  std::vector<const passes::Pass*> out;
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    std::string name = list.substr(start, comma == std::string::npos ? comma : comma - start);
    const passes::Pass* p = passes::find_pass(name);
    if (!p) {
      usage_error("--passes: no pass named '" + name + "' (`bough optimize --list` shows them)");
      return {};
    }
    out.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

struct Options {
  std::string in, out, passes;
  bool repair = false, list = false;
};

int optimize(const Options& opt) {
  if (opt.list) {
    for (const passes::Pass& p : passes::all_passes())
      std::printf("%-16s %s%s\n", std::string(p.name).c_str(), std::string(p.description).c_str(),
                  p.level == passes::Level::basic ? ""
                  : p.level == passes::Level::all ? " [all only]"
                                                  : " [repair]");
    return kExitOk;
  }
  if (opt.out.empty()) return usage_error("optimize needs IN and OUT (or --list)");
  std::vector<const passes::Pass*> pipeline;
  if (!opt.passes.empty()) {
    pipeline = parse_pipeline(opt.passes);
    if (pipeline.empty()) return kExitUsage;
  }
  const bool repair = opt.repair;
  const std::string &in = opt.in, &out = opt.out;
  if (out.size() < 5 || out.compare(out.size() - 5, 5, ".onnx") != 0) {
    return usage_error(out + ": the output must end in .onnx");
  }
  if (same_file(in, out)) {
    return usage_error(out + ": optimize never overwrites its input");
  }
  passes::PipelineOptions options;
  options.passes = pipeline.empty() ? passes::basic_pipeline() : pipeline;
  options.repair = repair;
  const passes::Optimized optimized = passes::optimize(*read_model_file(in), options);
  if (repair)
    std::printf("repaired: %d If%s\n", optimized.repaired, optimized.repaired == 1 ? "" : "s");
  const passes::PipelineReport& report = optimized.report;
  for (const passes::PassCount& p : report.passes)
    std::printf("%-16s %d change%s (%.1f ms)\n", p.name.c_str(), p.changes,
                p.changes == 1 ? "" : "s", p.seconds * 1e3);
  std::printf("%d round%s\n", report.rounds, report.rounds == 1 ? "" : "s");
  onnx::write_model_file(*optimized.model, out);
  return kExitOk;
}

}  // namespace optimize_op
}  // namespace

Command add_optimize(CLI::App& root) {
  using namespace optimize_op;
  CLI::App* app = root.add_subcommand(
      "optimize",
      "run graph passes (fold constants and constant Ifs, remove dead code) until nothing "
      "changes and write the result as ONNX; IN is never overwritten");
  auto opt = std::make_shared<Options>();
  app->add_option("IN", opt->in, "the model to read");
  app->add_option("OUT", opt->out, "the .onnx file to write");
  app->add_option(
      "--passes", opt->passes,
      "the passes to run, comma-separated (default: the basic pipeline, no fusions: the written "
      "model stays portable)");
  app->add_flag("--repair", opt->repair,
                "first rewrite what the check refuses but has one clear meaning (legalize-if)");
  app->add_flag("--list", opt->list, "list the passes and exit");
  return {app, [opt] { return optimize(*opt); }};
}

}  // namespace bough::cli
