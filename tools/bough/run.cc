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
namespace run_op {

struct Options {
  RunOptions run;
  OutputOptions output;
};

int run_model(const Options& opt) {
  std::optional<OutputDir> dir;
  // The folder is checked before the inputs are read.
  SessionAndFeed opened = open_session(opt.run, false, [&](const Session& session) {
    if (!opt.output.dir.empty()) dir.emplace(opt.output, session);
  });
  NamedValues outputs = opened.session->run(opened.feed);
  if (dir) dir->write(outputs);
  print_outputs(outputs, opt.output);
  return kExitOk;
}

}  // namespace run_op
}  // namespace

Command add_run(CLI::App& root) {
  using namespace run_op;
  CLI::App* app = root.add_subcommand("run", "run the model once and print its outputs");
  auto opt = std::make_shared<Options>();
  add_run_options(app, &opt->run);
  add_output_options(app, &opt->output);
  return {app, [opt] { return run_model(*opt); }};
}

}  // namespace bough::cli
