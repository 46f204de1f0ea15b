#include <cstdio>
#include <cstring>
#include <exception>

#include "bough/error.h"
#include "commands.h"

namespace bough::cli {

int report_error(const std::exception& e) {
  std::fprintf(stderr, "bough: error: %s\n", e.what());
  if (const auto* err = dynamic_cast<const Error*>(&e)) {
    switch (err->kind()) {
      case ErrorKind::IO:
      case ErrorKind::BadInput:
      case ErrorKind::Stopped:
        return kExitUsage;
      case ErrorKind::InvalidModel:
      case ErrorKind::Unsupported:
        return kExitInvalid;
    }
  }
  return kExitInvalid;
}

}  // namespace bough::cli

namespace {

constexpr const char* kUsage = R"(usage: bough COMMAND [ARGS]

commands:
  info MODEL                      print the model's IR: graphs, subgraphs, captures, types
  check MODEL [--json] [--allow-newer-opset]
                                  check the model's structure and types; list every problem
                                  found (stderr, or JSON on stdout); exit 1 when it is invalid
  infer MODEL [-o OUT.onnx]       print the inferred type of every value, or write the model
                                  with them as value_info
  ops [NAME] [--json]             list the operators bough runs; NAME: its signatures
  run MODEL [--input NAME=FILE]... [--output-dir DIR] [--threads N]
                                  run the model and print its outputs
  bench MODEL [--input NAME=FILE]... [--iters N] [--warmup W] [--threads N]
                                  time repeated runs in one process
                                  (run and bench refuse an invalid model, and an opset newer
                                  than bough knows unless given --allow-newer-opset)
  test-data DIR...                run ONNX backend-layout test folders and compare outputs
  convert IN OUT [--captures carried|implicit]
                                  convert between ONNX (.onnx) and OpenVINO IR (.xml + .bin)

MODEL is an ONNX file, or an OpenVINO IR .xml with its .bin beside it.

exit status: 0 success, 1 invalid model or failed tests, 2 usage or I/O error
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace bough::cli;
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitUsage : kExitOk;
  }
  Args args(argv + 2, argv + argc);
  std::string cmd = argv[1];
  try {
    if (cmd == "info") return cmd_info(args);
    if (cmd == "check") return cmd_check(args);
    if (cmd == "test-data") return cmd_test_data(args);
    if (cmd == "run") return cmd_run(args);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "convert") return cmd_convert(args);
    if (cmd == "ops") return cmd_ops(args);
    if (cmd == "infer") return cmd_infer(args);
  } catch (const std::exception& e) {
    return report_error(e);
  }
  std::fprintf(stderr, "bough: unknown command '%s'\n%s", cmd.c_str(), kUsage);
  return kExitUsage;
}
