// The bough CLI: each subcommand adds itself to the CLI11 app (its options, their help and
// defaults) in its own file and returns the action to run once the command line is parsed.
#pragma once

#include <exception>
#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace bough::cli {

// Exit codes shared by every subcommand (listed in `bough --help` and the README).
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;   // invalid or unsupported model, failed tests
inline constexpr int kExitUsage = 2;     // a bad command line
inline constexpr int kExitBadInput = 3;  // input data that does not fit the model
inline constexpr int kExitIO = 4;        // a file could not be read or written

using Action = std::function<int()>;
// A subcommand and what it does once its options are parsed.
struct Command {
  CLI::App* app;
  Action run;
};

Command add_info(CLI::App& root);
Command add_check(CLI::App& root);
Command add_infer(CLI::App& root);
Command add_ops(CLI::App& root);
Command add_run(CLI::App& root);
Command add_bench(CLI::App& root);
Command add_test_data(CLI::App& root);
Command add_optimize(CLI::App& root);
Command add_convert(CLI::App& root);
Command add_show(CLI::App& root);
Command add_serve(CLI::App& root);

// The one place error kinds become exit codes: prints the error to stderr and returns its
// code.
int report_error(const std::exception& e);
// Prints "bough: error: MESSAGE" to stderr and returns kExitUsage.
int usage_error(const std::string& message);

}  // namespace bough::cli
