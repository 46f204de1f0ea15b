// bough info MODEL — print the IR, with the type inference finds for every value.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "commands.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "ir/printer.h"

namespace bough::cli {

namespace {

int info(const std::string& path) {
  auto model = read_model_file(path);
  // An invalid model is still printed, with what inference could find; `bough check` says
  // what is wrong with it.
  infer::Validation v = infer::validate(*model);
  infer::annotate(*model, v.types);
  std::fputs(ir::print_model(*model).c_str(), stdout);
  return kExitOk;
}

}  // namespace

Command add_info(CLI::App& root) {
  CLI::App* app = root.add_subcommand(
      "info", "print the model's IR: graphs, subgraphs, captures, and the inferred types");
  auto path = std::make_shared<std::string>();
  app->add_option("MODEL", *path, "the model")->required();
  return {app, [path] { return info(*path); }};
}

}  // namespace bough::cli
