// The bough CLI: one function per subcommand, each in its own file.
#pragma once

#include <string>
#include <vector>

namespace bough::cli {

using Args = std::vector<std::string>;

int cmd_info(const Args& args);
int cmd_check(const Args& args);
int cmd_test_data(const Args& args);
int cmd_run(const Args& args);
int cmd_bench(const Args& args);
int cmd_convert(const Args& args);
int cmd_ops(const Args& args);
int cmd_infer(const Args& args);
int cmd_optimize(const Args& args);

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalid = 1;  // invalid model, failed tests
inline constexpr int kExitUsage = 2;    // usage or I/O error

// Prints an error of the library to stderr and returns the exit code for it.
int report_error(const std::exception& e);

}  // namespace bough::cli
