// Where the tests find their data, and scratch space.
#pragma once

#include <string>

namespace bough::test {

// The ONNX backend node tests: $BOUGH_CONFORMANCE_DIR, else ../shared/conformance/onnx-node
// beside the project, else Debian's libonnx-testdata. "" when none exists.
std::string conformance_dir();
std::string source_dir();
std::string cli_path();
// A fresh empty folder for one test.
std::string scratch_dir(const std::string& name);
// Runs `command` through the shell; returns its exit status (-1 when it did not exit
// normally) and fills `output` (stdout+stderr).
int run_command(const std::string& command, std::string* output);
// Runs the CLI with `args`, as run_command does.
int run_cli(const std::string& args, std::string* output);

}  // namespace bough::test
