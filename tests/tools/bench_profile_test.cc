// `bough bench --profile` and `--profile-json` on examples/if_loop.onnx (a Loop whose body
// holds an If; see tests/exec/run_profile_test.cc for what runs) and on a conformance Scan.
#include <gtest/gtest.h>

#include <climits>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "formats/npy/npy.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough::test {
namespace {

// The example with x = [1,2,3] and n = `n` given as .npy files.
std::string example_args(int64_t n) {
  const std::string dir = scratch_dir("bench_profile");
  npy::write_npy(Tensor::scalar_i64(n), dir + "/n.npy");
  const std::string x = save_npy_f32(dir, "x.npy", {3}, {1, 2, 3});
  return shell_quoted(source_dir() + "/examples/if_loop.onnx") +
         " -i n=" + shell_quoted(dir + "/n.npy") + " -i x=" + shell_quoted(x);
}

// The share of the runs' time that the nodes' own times account for, from the summary line.
double coverage_percent(const std::string& out) {
  const std::string lead = "own times add up to ";
  const size_t at = out.find(lead);
  return at == std::string::npos ? -1 : std::stod(out.substr(at + lead.size()));
}

// The calls column of the table's row for `op` at `place`, or -1 without one. A row is
// "SHARE %  TOTAL UNIT  MEAN UNIT  CALLS  OP  PLACE", the place running to the line's end.
long long calls_of(const std::string& out, const std::string& op, const std::string& place) {
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string share, percent, total, total_unit, mean, mean_unit, calls, row_op, row_place;
    fields >> share >> percent >> total >> total_unit >> mean >> mean_unit >> calls >> row_op;
    std::getline(fields >> std::ws, row_place);
    if (percent == "%" && row_op == op && row_place == place) return std::stoll(calls);
  }
  return -1;
}

TEST(BenchProfile, RowsForEveryNodeInsideTheLoopAndTheIf) {
  std::string out;
  ASSERT_EQ(run_cli("bench " + example_args(4) + " --iters 3 --warmup 1 --profile", &out), 0)
      << out;
  EXPECT_NE(out.find("profile of 3 runs"), std::string::npos) << out;
  // Calls over the 3 profiled runs of n = 4: the Loop once a run, the body's nodes 4 times,
  // each branch's node 2 times.
  const std::string body = "main/Loop \"steps\"/body";
  EXPECT_EQ(calls_of(out, "Loop", "main/Loop \"steps\""), 3) << out;
  EXPECT_EQ(calls_of(out, "Mod", body + "/Mod"), 12) << out;
  EXPECT_EQ(calls_of(out, "If", body + "/If \"even_or_odd\""), 12) << out;
  EXPECT_EQ(calls_of(out, "Add", body + "/If \"even_or_odd\"/then_branch/Add"), 6) << out;
  EXPECT_EQ(calls_of(out, "Mul", body + "/If \"even_or_odd\"/else_branch/Mul"), 6) << out;
  // Then the table per operator: Mod, Equal and If 12 calls each, Add and Mul 6, the Loop 3.
  const size_t per_op = out.find("per operator:\n  share      total     calls  op\n");
  ASSERT_NE(per_op, std::string::npos) << out;
  std::istringstream rows(out.substr(per_op));
  std::map<std::string, long long> op_calls;
  std::string line;
  std::getline(rows, line);
  std::getline(rows, line);
  while (std::getline(rows, line)) {
    std::istringstream fields(line);
    std::string share, percent, total, unit, op;
    long long calls = 0;
    if (fields >> share >> percent >> total >> unit >> calls >> op) op_calls[op] = calls;
  }
  EXPECT_EQ(op_calls,
            (std::map<std::string, long long>{
                {"Loop", 3}, {"Mod", 12}, {"Equal", 12}, {"If", 12}, {"Add", 6}, {"Mul", 6}}))
      << out;
}

TEST(BenchProfile, NodesAccountForTheRunTime) {
  // With 1,000 iterations the run is its nodes; what lies outside them (binding inputs,
  // taking outputs) is well under 10 %.
  std::string out;
  ASSERT_EQ(run_cli("bench " + example_args(1000) + " --iters 5 --profile", &out), 0) << out;
  EXPECT_GE(coverage_percent(out), 90.0) << out;
  EXPECT_LE(coverage_percent(out), 100.0) << out;
  const std::string scan =
      shell_quoted(conformance_dir() + "/test_scan9_sum/model.onnx");  // Scan over 3 items
  if (std::filesystem::exists(conformance_dir() + "/test_scan9_sum/model.onnx")) {
    ASSERT_EQ(run_cli("bench " + scan + " --iters 5 --profile", &out), 0) << out;
    EXPECT_EQ(calls_of(out, "Add", "main/Scan/body/Add"), 15) << out;
  }
}

TEST(BenchProfile, JsonRowsAndAChromeTrace) {
  const std::string trace = scratch_dir("bench_profile_trace") + "/trace.json";
  std::string out;
  ASSERT_EQ(run_cli("bench " + example_args(2) + " --iters 2 --warmup 0 --json --profile " +
                        "--profile-json " + shell_quoted(trace),
                    &out),
            0)
      << out;
  EXPECT_NE(out.find("\"profile\": [{\"place\": "), std::string::npos) << out;
  EXPECT_NE(out.find("{\"place\": \"main/Loop \\\"steps\\\"\", \"op\": \"Loop\", \"calls\": 2, "),
            std::string::npos)
      << out;
  const std::string json = read_text(trace);
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.rfind("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", 0), 0u);
  // Per run: one run event, the Loop, and per iteration Mod, Equal, If and the branch's node
  // (Add, then Mul): 2 + 2 * 4 = 10 events; 2 runs.
  EXPECT_EQ(count_of(json, "\"ph\": \"X\""), 20u);
  EXPECT_EQ(count_of(json, "\"cat\": \"run\""), 2u);
  EXPECT_EQ(count_of(json, "\"name\": \"Add\""), 2u);
  EXPECT_EQ(count_of(json, "\"name\": \"Mul\""), 2u);
  EXPECT_NE(json.find("\"node\": \"main/Loop \\\"steps\\\"/body/If \\\"even_or_odd\\\"\""),
            std::string::npos);

  // ONNX Runtime's args. The Loop reads n (int64 scalar, 8 bytes) and x (float[3], 12); its
  // outputs after 2 iterations are x_final (float[3], 12) and the scan of x (float[2, 3], 24).
  // Mod reads i and the body's initializer `two` (int64 scalars: 8 bytes each, `two` a
  // parameter) and writes the parity (8). The then branch's Add reads x_in (float[3]) and
  // main's initializer `step` (float[3], a parameter captured by the branch).
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  ASSERT_TRUE(parsed.is_object()) << json;
  std::map<std::string, nlohmann::json> args;  // the first event of each op
  for (const nlohmann::json& e : parsed["traceEvents"])
    if (e["cat"] == "node" && !args.count(e["name"])) args[e["name"]] = e["args"];
  const nlohmann::json loop = args["Loop"];
  EXPECT_EQ(loop["op_name"], "Loop");
  EXPECT_EQ(loop["provider"], "CPUExecutionProvider");
  EXPECT_EQ(loop["input_type_shape"], nlohmann::json::parse(R"([{"int64": []}, {"float": [3]}])"));
  EXPECT_EQ(loop["output_type_shape"],
            nlohmann::json::parse(R"([{"float": [3]}, {"float": [2, 3]}])"));
  EXPECT_EQ(loop["activation_size"], "20");
  EXPECT_EQ(loop["parameter_size"], "0");
  EXPECT_EQ(loop["output_size"], "36");
  EXPECT_EQ(args["Mod"]["input_type_shape"],
            nlohmann::json::parse(R"([{"int64": []}, {"int64": []}])"));
  EXPECT_EQ(args["Mod"]["activation_size"], "8");
  EXPECT_EQ(args["Mod"]["parameter_size"], "8");
  EXPECT_EQ(args["Mod"]["output_size"], "8");
  EXPECT_EQ(args["Add"]["input_type_shape"],
            nlohmann::json::parse(R"([{"float": [3]}, {"float": [3]}])"));
  EXPECT_EQ(args["Add"]["activation_size"], "12");
  EXPECT_EQ(args["Add"]["parameter_size"], "12");
  // The summary per operator, last: Loop, Mod, Equal and If once per iteration or run, Add
  // and Mul once a run; its shares are of the runs' time.
  const nlohmann::json summary = parsed["traceEvents"].back();
  EXPECT_EQ(summary["name"], "bough_op_summary");
  EXPECT_EQ(summary["ph"], "M");
  std::map<std::string, int> calls;
  double shares = 0;
  int64_t previous = INT64_MAX;
  for (const nlohmann::json& op : summary["args"]["ops"]) {
    calls[op["op"]] = op["calls"];
    shares += op["share"].get<double>();
    EXPECT_LE(op["total_ns"].get<int64_t>(), previous) << op;  // the most time first
    previous = op["total_ns"];
  }
  EXPECT_EQ(calls, (std::map<std::string, int>{
                       {"Loop", 2}, {"Mod", 4}, {"Equal", 4}, {"If", 4}, {"Add", 2}, {"Mul", 2}}));
  EXPECT_GT(shares, 0);
  EXPECT_LE(shares, 100.5);
  // The same summary in --json, as profile_ops (its object ends at the first "]}").
  const size_t ops_at = out.find("\"profile_ops\": {\"runs_ns\": ");
  ASSERT_NE(ops_at, std::string::npos) << out;
  const size_t from = out.find('{', ops_at), to = out.find("]}", ops_at);
  const nlohmann::json printed =
      nlohmann::json::parse(out.substr(from, to + 2 - from), nullptr, false);
  ASSERT_TRUE(printed.is_object()) << out;
  EXPECT_EQ(printed["ops"].size(), 6u) << out;
}

// Refused before the benchmark runs, not after it.
TEST(BenchProfile, ATraceThatCannotBeWrittenIsAnIoError) {
  const std::string trace = scratch_dir("bench_profile_trace") + "/no-such-folder/trace.json";
  std::string out;
  EXPECT_EQ(run_cli("bench " + example_args(2) + " --iters 1 --profile-json " + shell_quoted(trace),
                    &out),
            4)
      << out;
  EXPECT_NE(out.find(trace + ": cannot write"), std::string::npos) << out;
  EXPECT_EQ(out.find("runs after"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough::test
