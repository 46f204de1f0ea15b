// Options shared by `run` and `bench`, and loading --input files.
#pragma once

#include <string>
#include <vector>

#include "bough/session.h"
#include "commands.h"

namespace bough::cli {

struct RunOptions {
  std::string model;
  std::vector<std::pair<std::string, std::string>> inputs;  // name, file
  std::string output_dir;
  int threads = 1;
  bool allow_newer_opset = false;
  Optimization optimization = Optimization::basic;
  int iters = 100;
  int warmup = 5;
};

// Parses MODEL and the options; `bench` enables --iters/--warmup. Prints usage and returns
// false on a bad command line.
bool parse_run_options(const Args& args, const char* command, RunOptions* opt, bool* is_bench);
// --optimize LEVEL: none, basic or all. False for another word.
bool parse_optimization(const std::string& level, Optimization* out);
// Reads each --input file: .npy, or .pb (TensorProto).
NamedValues load_inputs(const RunOptions& opt);
// A file name made from a value name (no path separators).
std::string safe_file_name(const std::string& name);

}  // namespace bough::cli
