// The options `run` and `bench` share, and the inputs they feed: files given with --input
// (.npy, or a TensorProto / SequenceProto / OptionalProto .pb), or values generated from the
// declared types (@random).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bough/session.h"

namespace bough::cli {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE or NAME=@random
  std::vector<std::string> dims;    // NAME=VALUE, for the symbolic dimensions of @random inputs
  int threads = 1;
  bool allow_newer_opset = false;
  Optimization optimization = Optimization::all;
};

// A mistake on the command line found after parsing; exits with the usage code.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// MODEL, --input, --dim, --threads, --optimize, --allow-newer-opset.
void add_run_options(CLI::App* app, RunOptions* opt);
// The feed for a run. Files are told apart by content: the .npy magic, or else a protobuf
// whose message (TensorProto, SequenceProto, OptionalProto) the input's declared type
// chooses. @random inputs, and with `random_rest` every input not given, are generated from
// the declared types. Throws UsageError for the same input given twice, an unknown input
// name, or a symbolic dimension with no --dim; BadInput listing every missing input with its
// type.
NamedValues load_inputs(const RunOptions& opt, const Session& session, bool random_rest);

struct SessionAndFeed {
  std::unique_ptr<Session> session;  // at a fixed address, for what refers to it
  NamedValues feed;
  double create_seconds;  // how long creating the session took
};
// Loads opt.model, creates its session, calls `before_inputs` with it (when given), and
// loads the feed (load_inputs). The Model is dropped before this returns: the session holds
// what it runs, so a weight its kernels prepared is not also kept in its original form.
SessionAndFeed open_session(const RunOptions& opt, bool random_rest,
                            const std::function<void(const Session&)>& before_inputs = {});

}  // namespace bough::cli
