// What `run` does with the outputs: print them (a preview, every value, or a summary; as text
// or JSON) and write them to --output-dir.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <string>

#include "bough/session.h"

namespace bough::cli {

struct OutputOptions {
  std::string dir;
  bool force = false;
  std::string print = "preview";  // preview, full, summary or none
  bool json = false;
};

// --output-dir, --force, --print, --json.
void add_output_options(CLI::App* app, OutputOptions* opt);

// The first `limit` values of a tensor: "[1, 2.5, ...]" (strings quoted).
std::string preview_values(const Tensor& t, int64_t limit);

// "min 0  max 1  mean 0.5", NaN and inf counts after it; "" for a non-numeric tensor.
std::string summary_text(const Tensor& t);

// Prints the outputs on stdout as --print and --json say.
void print_outputs(const NamedValues& outputs, const OutputOptions& opt);

// The --output-dir of one run. Made before the run, so that a folder that cannot be written,
// or a file that would be overwritten without --force, is found before any work. Files are
// written into a temporary folder inside it and renamed into place at the end: a failed run
// leaves nothing behind (the folder too, when this made it).
//
// Each output goes to NAME.npy when numpy has its element type, and otherwise to NAME.pb: a
// TensorProto, a SequenceProto for a sequence, an OptionalProto when the output is declared
// optional. A name that is not a safe file name is changed, and names.json maps the files
// to the output names.
class OutputDir {
 public:
  OutputDir(const OutputOptions& opt, const Session& session);
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  void write(const NamedValues& outputs);

 private:
  std::filesystem::path dir_, staging_;
  bool made_dir_ = false, force_ = false, done_ = false;
  const Session& session_;
  std::vector<std::string> stems_;  // the file name (without extension) of each output
};

}  // namespace bough::cli
