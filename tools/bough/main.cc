// bough: the command line. CLI11 parses; each subcommand lives in its own file.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>

#include "bough/error.h"
#include "commands.h"
#include "exec/operators.h"
#include "inputs.h"
#include "options.h"
#include "suggest.h"
#include "util/printable.h"
#include "version.h"

namespace bough::cli {

int report_error(const std::exception& e) {
  const auto* err = dynamic_cast<const Error*>(&e);
  // An Error's parts rather than what(), which a NUL in a model's name would cut short.
  // The place is made of the model's names, escaped as names. A message may span lines
  // (a list of missing inputs), and may hold names with newlines of their own: every line
  // after the first is indented, so that only bough's own first line starts at the margin.
  std::string text = !err                   ? util::printable(e.what())
                     : err->where().empty() ? util::printable(err->message())
                                            : util::printable_name(err->where()) + ": " +
                                                  util::printable(err->message());
  for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 3))
    text.insert(at + 1, "  ");
  std::fprintf(stderr, "bough: error: %s\n", text.c_str());
  if (dynamic_cast<const UsageError*>(&e)) return kExitUsage;
  if (dynamic_cast<const std::filesystem::filesystem_error*>(&e)) return kExitIO;
  if (!err) return kExitInvalid;
  switch (err->kind()) {
    case ErrorKind::IO:
      return kExitIO;
    case ErrorKind::BadInput:
      return kExitBadInput;
    case ErrorKind::InvalidModel:
    case ErrorKind::Unsupported:
    case ErrorKind::Stopped:
      return kExitInvalid;
  }
  return kExitInvalid;
}

int usage_error(const std::string& message) {
  std::fprintf(stderr, "bough: error: %s\n", message.c_str());
  return kExitUsage;
}

namespace {
namespace main_op {

// " (did you mean '--threads'?)" for the first option among the arguments `command` did not
// take that is close to one of its own; "" when none is.
std::string option_hint(const CLI::App& app, const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* o : command.get_options()) {
    for (const std::string& n : o->get_lnames()) names.push_back("--" + n);
    for (const std::string& n : o->get_snames()) names.push_back("-" + n);
  }
  std::vector<std::string> left = command.remaining(true);
  for (const std::string& arg : app.remaining(true)) left.push_back(arg);
  for (const std::string& arg : left) {
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string hint = did_you_mean(arg.substr(0, arg.find('=')), names);
    if (!hint.empty()) return hint;
  }
  return "";
}

}  // namespace main_op
}  // namespace

}  // namespace bough::cli

namespace {

constexpr const char* kFooter =
    R"(MODEL is an ONNX file, or an OpenVINO IR .xml with its .bin beside it.
`bough help COMMAND` or `bough COMMAND --help` describes a command and its options.

exit status: 0 success, 1 invalid or unsupported model or failed tests, 2 usage,
             3 bad input data, 4 I/O error)";

}  // namespace

int main(int argc, char** argv) {
  bough::exec::register_operators();  // the commands reach ops/ directly
  using namespace bough::cli;
  using namespace main_op;
  CLI::App app("bough: check, infer, convert, optimize and run ONNX and OpenVINO IR models",
               "bough");
  app.formatter(std::make_shared<WrappingFormatter>());
  app.footer(kFooter);
  app.set_version_flag(
      "--version", [] { return version_text(); },
      "print the version and the CPU features of the build and exit");
  app.require_subcommand(0, 1);
  const std::vector<Command> commands = {add_info(app),      add_check(app),    add_infer(app),
                                         add_ops(app),       add_run(app),      add_bench(app),
                                         add_test_data(app), add_optimize(app), add_convert(app),
                                         add_show(app),      add_serve(app)};
  std::string topic;
  CLI::App* help = app.add_subcommand("help", "describe the tool, or one command and its options");
  help->add_option("COMMAND", topic, "the command to describe");
  if (argc > 1 && argv[1][0] != '-') {
    const std::string name = argv[1];
    std::vector<std::string> names = {"help"};
    for (const Command& c : commands) names.push_back(c.app->get_name());
    if (std::find(names.begin(), names.end(), name) == names.end())
      return usage_error("no command named '" + name + "'" + did_you_mean(name, names) +
                         " (`bough help` lists them)");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::vector<CLI::App*> chosen = app.get_subcommands();
    std::string name = chosen.empty() ? "bough" : "bough " + chosen.back()->get_name();
    const std::string hint = option_hint(app, chosen.empty() ? app : *chosen.back());
    std::fprintf(stderr, "%s: error: %s%s\n(`%s --help` lists the options)\n", name.c_str(),
                 e.what(), hint.c_str(), name.c_str());
    return kExitUsage;
  }
  if (help->parsed()) {
    if (topic.empty()) {  // app.help() would describe the selected `help` command
      std::cout << app.get_formatter()->make_help(&app, "bough", CLI::AppFormatMode::Normal);
      return kExitOk;
    }
    for (const Command& c : commands)
      if (c.app->get_name() == topic) {
        std::cout << c.app->help("bough");
        return kExitOk;
      }
    return usage_error("no command named '" + topic + "' (`bough help` lists them)");
  }
  for (const Command& c : commands) {
    if (!c.app->parsed()) continue;
    try {
      return c.run();
    } catch (const std::exception& e) {
      return report_error(e);
    }
  }
  std::cerr << app.help();
  return kExitUsage;
}
