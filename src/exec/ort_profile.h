// ONNX Runtime's profile format for profiled runs (Session::run_profiled), shared by
// `bough bench --profile-json` and the Python module's end_profiling(): the args of a node
// event as ONNX Runtime writes them, and bough's summary per operator type.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bough/session.h"

namespace bough::exec {

// The name ONNX Runtime gives every node event's provider.
inline constexpr const char* kOrtProvider = "CPUExecutionProvider";

// ONNX Runtime's args of a node event, as the members of a JSON object (no braces):
// "op_name" (the operator, without its domain), "provider", "activation_size" (bytes of the
// inputs that are not model constants), "parameter_size" (bytes of those that are),
// "output_size" (bytes of the outputs) - numbers written as strings, as ONNX Runtime writes
// them - and "input_type_shape", "output_type_shape": [{"float": [1, 3]}, ...].
std::string ort_node_args(const NodeTiming& node);

// One operator type over profiled runs: its node runs and their own time (without their
// subgraphs' nodes) summed.
struct OpTotal {
  std::string op;  // `domain.Op` outside the default domain
  int64_t calls = 0;
  int64_t self_ns = 0;
};

// The operator types of `runs`, the most time first (then by name).
std::vector<OpTotal> op_totals(std::span<const RunProfile* const> runs);

// The summary as a JSON object: {"runs_ns": the runs' time, "ops": [{"op", "calls",
// "total_ns", "share": percent of the runs' time}, ...]}, in op_totals' order.
std::string op_summary_json(const std::vector<OpTotal>& ops, int64_t runs_ns);

}  // namespace bough::exec
