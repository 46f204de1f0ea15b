// `bough bench --profile`: per-node rows and per-operator totals over profiled runs, as
// tables, as JSON, and as a Chrome trace (`--profile-json`, opened by Perfetto or
// chrome://tracing) whose node events carry ONNX Runtime's args.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bough/session.h"

namespace bough::cli {

// One profiled run, and when it started (ns from any fixed origin: trace times count from the
// first run's start).
struct ProfiledRun {
  int64_t start_ns = 0;
  RunProfile profile;
};

// One node over all the runs: its own time (without its subgraphs' nodes) summed.
struct ProfileRow {
  std::string place, op;
  int64_t calls = 0;
  int64_t self_ns = 0;
};

// The rows, the node taking the most time first.
std::vector<ProfileRow> profile_rows(const std::vector<ProfiledRun>& runs);

// The table `bench --profile` prints: a summary line (how much of the runs' time the nodes
// account for), then op, node, calls, total and mean own time and share, at most `max_rows`
// rows (the rest summed in one line).
std::string profile_table(const std::vector<ProfiledRun>& runs, size_t max_rows);

// The rows as a JSON array for `bench --json`: [{"place", "op", "calls", "self_ns"}, ...].
std::string profile_json_rows(const std::vector<ProfiledRun>& runs);

// The table of operator types `bench --profile` prints after the nodes': share, total own
// time, calls and op, the most time first (exec/ort_profile.h).
std::string op_summary_table(const std::vector<ProfiledRun>& runs);

// The same as JSON, for `bench --json` ("profile_ops") and the trace (exec::op_summary_json).
std::string op_summary_json(const std::vector<ProfiledRun>& runs);

// Chrome's trace event format: one complete event ("ph": "X") per run and per node run, in
// microseconds from the first run's start; a node's subgraph nodes nest inside it. A node
// event's args are ONNX Runtime's (exec::ort_node_args) with bough's "node" (its place) and
// "self_us"; the last event, metadata ("ph": "M") named "bough_op_summary", holds
// op_summary_json as its args.
std::string chrome_trace(const std::vector<ProfiledRun>& runs);

}  // namespace bough::cli
