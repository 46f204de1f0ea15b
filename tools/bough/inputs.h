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
  int threads = 0;                  // -x: 0 is one per physical core (SessionOptions::threads)
  int inter_op_threads = 0;         // -y: accepted as ONNX Runtime's, with a note when above 1
  bool allow_newer_opset = false;
  Optimization optimization = Optimization::all;
  // bench: a free dimension of a generated input that --dim does not size is 1 (as
  // onnxruntime_perf_test does), where run asks for its size.
  bool free_dims_are_one = false;
  int sessions = 1;  // bench -c: sessions of the model, sharing its weights
  // bench DIR: a data set folder whose input_0.pb, input_1.pb... feed the inputs without a
  // default, in order (as `test-data` reads them), where --input does not.
  std::string data_set;
};

// A mistake on the command line found after parsing; exits with the usage code.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// MODEL, --input, --dim, -x/--threads, -y/--inter-op-threads, --optimize,
// --allow-newer-opset.
void add_run_options(CLI::App* app, RunOptions* opt);
// The feed for a run. Files are told apart by content: the .npy magic, or else a protobuf
// whose message (TensorProto, SequenceProto, OptionalProto) the input's declared type
// chooses. @random inputs, and with `random_rest` every input not given, are generated from
// the declared types. Throws UsageError for the same input given twice, an unknown input
// name, a --dim that names no dimension of the inputs, or (unless opt.free_dims_are_one) a
// free dimension with no --dim; BadInput listing every missing input with its type. The free
// dimensions set to 1 are added to `set_to_one` as `batch`, or `x[0]` when unnamed.
NamedValues load_inputs(const RunOptions& opt, const Session& session, bool random_rest,
                        std::vector<std::string>* set_to_one = nullptr);

struct SessionAndFeed {
  std::unique_ptr<Session> session;            // at a fixed address, for what refers to it
  std::vector<std::unique_ptr<Session>> more;  // opt.sessions - 1 more of the same model
  NamedValues feed;
  double create_seconds;                // how long creating the (first) session took
  std::vector<std::string> set_to_one;  // the free dimensions load_inputs set to 1
};
// Loads opt.model, creates its session(s), calls `before_inputs` with the first (when given),
// and loads the feed (load_inputs). The Model is dropped before this returns: the sessions
// hold what they run, so a weight their kernels prepared is not also kept in its original
// form.
SessionAndFeed open_session(const RunOptions& opt, bool random_rest,
                            const std::function<void(const Session&)>& before_inputs = {});

}  // namespace bough::cli
