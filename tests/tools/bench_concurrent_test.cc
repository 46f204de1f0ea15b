// `bough bench` as onnxruntime_perf_test is used: on a model with free dimensions it runs
// with no flags (each free dimension 1, said in the output), `-c N` runs N requests at once on
// N sessions and reports their throughput, and the threads default to one per physical core
// (-x and -y spelled as perf_test spells them).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "formats/npy/npy.h"
#include "formats/onnx/tensor_proto.h"
#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"
#include "util/cpu_cores.h"

namespace bough::test {
namespace {

// x: float[D, 2] -> Reshape to [2] -> y: the run fails unless D is 1. D is named `batch`, or
// unnamed when `named` is false.
std::string free_dim_model(const std::string& dir, bool named) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {-1, 2});
  g.initializer("shape", i64({1}, {2}));
  g.output("y", ElemType::Float, {2});
  g.node("Reshape", {"x", "shape"}, {"y"}, "flat");
  if (named) g.name_input_dim(0, 0, "batch");
  return shell_quoted(save_model(make_model(g), dir, named ? "batch.onnx" : "unnamed.onnx"));
}

std::string example_model() { return shell_quoted(source_dir() + "/examples/if_loop.onnx"); }

// The example's inputs: x = [1, 2, 3] and n = 3.
std::string example_inputs(const std::string& dir) {
  npy::write_npy(Tensor::scalar_i64(3), dir + "/n.npy");
  return " -i n=" + shell_quoted(dir + "/n.npy") +
         " -i x=" + shell_quoted(save_npy_f32(dir, "x.npy", {3}, {1, 2, 3}));
}

nlohmann::json bench_json(const std::string& args) {
  std::string out;
  EXPECT_EQ(run_cli("bench " + args + " --json 2>/dev/null", &out), 0) << out;
  return nlohmann::json::parse(out, nullptr, false);
}

TEST(BenchFreeDims, EachFreeDimensionIsOneAndSaidSo) {
  const std::string dir = scratch_dir("bench_free_dims");
  std::string out;
  ASSERT_EQ(run_cli("bench " + free_dim_model(dir, true) + " --iters 3", &out), 0) << out;
  EXPECT_NE(out.find("free dimensions set to 1: batch (--dim NAME=N sets one)"), std::string::npos)
      << out;
  ASSERT_EQ(run_cli("bench " + free_dim_model(dir, false) + " --iters 3", &out), 0) << out;
  EXPECT_NE(out.find("free dimensions set to 1: x[0] (--dim NAME=N sets one)"), std::string::npos)
      << out;
  const nlohmann::json j = bench_json(free_dim_model(dir, true) + " --iters 2");
  EXPECT_EQ(j["dims_set_to_1"], nlohmann::json::array({"batch"})) << j;
  // --dim still sizes it (the Reshape then fails: proof that the size is used), and nothing
  // is set to 1 when the model has no free dimension.
  EXPECT_EQ(run_cli("bench " + free_dim_model(dir, true) + " --iters 1 --dim batch=2", &out), 3)
      << out;
  ASSERT_EQ(run_cli("bench " + example_model() + example_inputs(dir) + " --iters 1", &out), 0)
      << out;
  EXPECT_EQ(out.find("free dimensions"), std::string::npos) << out;
  // run still asks for the size.
  EXPECT_EQ(run_cli("run " + free_dim_model(dir, true) + " -i x=@random", &out), 2) << out;
  EXPECT_NE(out.find("give its size with --dim batch=N"), std::string::npos) << out;
}

// bench DIR runs DIR/model.onnx on DIR/test_data_set_0: x: float[n] reshaped to [3] runs on
// the data set's three floats, where a generated x (n = 1) fails.
TEST(BenchTestFolder, RunsOnTheFirstDataSet) {
  const std::filesystem::path dir = scratch_dir("bench_test_folder");
  GraphBuilder g;
  g.input("x", ElemType::Float, {-1});
  g.initializer("shape", i64({1}, {3}));
  g.output("y", ElemType::Float, {3});
  g.node("Reshape", {"x", "shape"}, {"y"}, "to_three");
  g.name_input_dim(0, 0, "n");
  const std::filesystem::path test = dir / "test_reshape";
  std::filesystem::create_directories(test / "test_data_set_0");
  save_model(make_model(g), test.string(), "model.onnx");
  std::string out;
  // No input files yet: said, with the count the model needs.
  EXPECT_EQ(run_cli("bench " + shell_quoted(test.string()) + " --iters 1", &out), 3) << out;
  EXPECT_NE(out.find("0 input files (input_N.pb) for the model's 1 inputs without a default"),
            std::string::npos)
      << out;
  onnx::write_tensor_file(f32({3}, {1, 2, 3}), (test / "test_data_set_0" / "input_0.pb").string());
  ASSERT_EQ(run_cli("bench " + shell_quoted(test.string()) + " --iters 2", &out), 0) << out;
  EXPECT_NE(out.find("2 runs"), std::string::npos) << out;
  EXPECT_EQ(out.find("free dimensions"), std::string::npos) << out;
  EXPECT_EQ(run_cli("bench " + shell_quoted((test / "model.onnx").string()) + " --iters 1", &out),
            3)
      << out;
}

TEST(BenchConcurrent, TwoSessionsRunAtOnceAndThroughputIsReported) {
  const std::string dir = scratch_dir("bench_concurrent");
  const std::string args = example_model() + example_inputs(dir);
  // With --duration each session runs at least once: two sessions' runs add up to the runs.
  const nlohmann::json j = bench_json(args + " -c 2 --duration 0.1 --warmup 1");
  ASSERT_TRUE(j.is_object()) << j;
  EXPECT_EQ(j["concurrent"], 2);
  ASSERT_EQ(j["runs_per_session"].size(), 2u) << j;
  const size_t first = j["runs_per_session"][0], second = j["runs_per_session"][1];
  EXPECT_GE(first, 1u);
  EXPECT_GE(second, 1u);
  EXPECT_EQ(first + second, j["runs"].get<size_t>());
  EXPECT_GT(j["runs_per_second"].get<double>(), 0);
  // The cores are shared between the sessions unless --threads says otherwise.
  EXPECT_EQ(j["threads"], std::max(1, util::physical_cores() / 2));
  EXPECT_EQ(bench_json(args + " -c 2 --iters 4 --threads 3")["threads"], 3);
  // --iters counts the runs of all the sessions.
  EXPECT_EQ(bench_json(args + " -c 3 --iters 10")["runs"], 10);
  std::string out;
  ASSERT_EQ(run_cli("bench " + args + " -c 2 --iters 10 --threads 1", &out), 0) << out;
  for (const char* part : {"2 runs at once on 2 sessions of 1 thread, 10 runs after 5 warm-up "
                           "each",
                           "median ", "p99 ", "runs/s"})
    EXPECT_NE(out.find(part), std::string::npos) << part << "\n" << out;
  EXPECT_EQ(run_cli("bench " + args + " -c 0", &out), 2) << out;
  EXPECT_NE(out.find("--concurrent: must be at least 1, got 0"), std::string::npos) << out;
}

TEST(BenchThreads, OnePerPhysicalCoreUnlessTold) {
  const std::string dir = scratch_dir("bench_threads");
  const std::string model = example_model() + example_inputs(dir);
  const std::string args = model + " --iters 2";
  EXPECT_EQ(bench_json(args)["threads"], util::physical_cores());
  EXPECT_EQ(bench_json(args + " --threads 0")["threads"], util::physical_cores());
  EXPECT_EQ(bench_json(args + " --threads 1")["threads"], 1);
  std::string out;
  ASSERT_EQ(run_cli("bench " + args, &out), 0) << out;
  EXPECT_NE(out.find(", threads " + std::to_string(util::physical_cores()) + ", "),
            std::string::npos)
      << out;
  EXPECT_EQ(run_cli("run " + model + " --threads -1", &out), 2) << out;
  EXPECT_NE(out.find("--threads: must be at least 0, got -1"), std::string::npos) << out;
  ASSERT_EQ(run_cli("run " + model + " --threads 0", &out), 0) << out;
  // x = [1, 2, 3], n = 3: +1, halved, +1 gives [2, 2.5, 3].
  EXPECT_NE(out.find("2, 2.5, 3"), std::string::npos) << out;
}

// onnxruntime_perf_test's spellings: -x N is --threads N; -y N is accepted, and above 1 a note
// says bough runs one node at a time.
TEST(BenchThreads, PerfTestSpellingsXAndY) {
  const std::string dir = scratch_dir("bench_threads_xy");
  const std::string model = example_model() + example_inputs(dir);
  const std::string args = model + " --iters 2";
  EXPECT_EQ(bench_json(args + " -x 1")["threads"], 1);
  EXPECT_EQ(bench_json(args + " -x 3")["threads"], 3);
  EXPECT_EQ(bench_json(args + " -x 3 -y 1")["threads"], 3);
  const std::string note =
      "bough: note: --inter-op-threads 4 is not used: bough runs one node at a time, each "
      "splitting its work over the --threads threads (-x)";
  std::string out;
  for (const std::string& command : {"bench " + args, "run " + model})
    for (const char* y : {" -y 4", " --inter-op-threads=4"}) {
      ASSERT_EQ(run_cli(command + " -x 2" + y, &out), 0) << out;
      EXPECT_NE(out.find(note), std::string::npos) << command << y << "\n" << out;
    }
  // x = [1, 2, 3], n = 3: +1, halved, +1 gives [2, 2.5, 3].
  EXPECT_NE(out.find("2, 2.5, 3"), std::string::npos) << out;
  for (const char* y : {" -y 0", " -y 1"}) {
    ASSERT_EQ(run_cli("run " + model + y, &out), 0) << out;
    EXPECT_EQ(out.find("note"), std::string::npos) << y << "\n" << out;
  }
  EXPECT_EQ(run_cli("run " + model + " -x -1", &out), 2) << out;
  EXPECT_NE(out.find("--threads: must be at least 0, got -1"), std::string::npos) << out;
  EXPECT_EQ(run_cli("bench " + args + " -y -2", &out), 2) << out;
  EXPECT_NE(out.find("--inter-op-threads: must be at least 0, got -2"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough::test
