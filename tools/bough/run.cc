// bough run MODEL [--input NAME=FILE|@random]... [--output-dir DIR] [--print MODE] [--json]
#include <CLI/CLI.hpp>
#include <memory>
#include <optional>

#include "bough/session.h"
#include "commands.h"
#include "inputs.h"
#include "outputs.h"

namespace bough::cli {

namespace {

struct Options {
  RunOptions run;
  OutputOptions output;
};

int run_model(const Options& opt) {
  Model model = Model::load(opt.run.model);
  Session session(model,
                  SessionOptions{opt.run.threads, opt.run.allow_newer_opset, opt.run.optimization});
  std::optional<OutputDir> dir;
  if (!opt.output.dir.empty()) dir.emplace(opt.output, session);
  NamedValues outputs = session.run(load_inputs(opt.run, model, session, false));
  if (dir) dir->write(outputs);
  print_outputs(outputs, opt.output);
  return kExitOk;
}

}  // namespace

Command add_run(CLI::App& root) {
  CLI::App* app = root.add_subcommand("run", "run the model once and print its outputs");
  auto opt = std::make_shared<Options>();
  add_run_options(app, &opt->run);
  add_output_options(app, &opt->output);
  return {app, [opt] { return run_model(*opt); }};
}

}  // namespace bough::cli
