// `bough optimize` and the sessions' optimization levels.
#include <gtest/gtest.h>

#include <filesystem>

#include "passes/pass_test_util.h"
#include "test_paths.h"
#include "util/files.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// y = If(Not(false)) { x + k } else { -x }, k = [1, 2]: a model every pass touches.
GraphBuilder constant_if_model() {
  GraphBuilder then_g("then_g");
  then_g.node("Add", {"x", "k"}, {"t"});
  then_g.output("t", ElemType::Float, {2});
  GraphBuilder else_g("else_g");
  else_g.node("Neg", {"x"}, {"n"});
  else_g.output("n", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("f", test::boolean({}, {false}));
  g.initializer("k", f32({2}, {1, 2}));
  g.node("Not", {"f"}, {"c"});
  g.node("If", {"c"}, {"y"});
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  g.output("y", ElemType::Float, {2});
  return g;
}

TEST(OptimizeCli, WritesTheOptimizedModelAndReportsEachPass) {
  const std::string dir = test::scratch_dir("optimize_cli");
  const std::string in = test::save_model(test::make_model(constant_if_model()), dir, "in.onnx");
  const std::string before = read_file(in);
  std::string out;
  ASSERT_EQ(test::run_cli("optimize " + in + " " + dir + "/out.onnx", &out), 0) << out;
  // Round 1: Not folds (c becomes an initializer), then the If; dead-code drops f and c,
  // which nothing reads any more; round 2 changes nothing.
  EXPECT_NE(out.find("fold-constants   1 change ("), std::string::npos) << out;
  EXPECT_NE(out.find("fold-if          1 change ("), std::string::npos) << out;
  EXPECT_NE(out.find("dead-code        2 changes ("), std::string::npos) << out;
  EXPECT_NE(out.find("2 rounds"), std::string::npos) << out;
  EXPECT_EQ(read_file(in), before);
  EXPECT_EQ(test::count_ops(dir + "/out.onnx", "If"), 0);
  auto y = test::run_plain(dir + "/out.onnx", {{"x", f32({2}, {3, 4})}});
  EXPECT_EQ(floats_of(y[0]), (std::vector<float>{4, 6}));
}

TEST(OptimizeCli, NeverOverwritesItsInput) {
  const std::string dir = test::scratch_dir("optimize_cli_same");
  const std::string in = test::save_model(test::make_model(constant_if_model()), dir, "in.onnx");
  const std::string before = read_file(in);
  std::string out;
  EXPECT_EQ(test::run_cli("optimize " + in + " " + dir + "/./in.onnx", &out), 2);
  EXPECT_NE(out.find("never overwrites its input"), std::string::npos) << out;
  EXPECT_EQ(read_file(in), before);
}

TEST(OptimizeCli, ListsPassesAndRefusesUnknownOnes) {
  std::string out;
  ASSERT_EQ(test::run_cli("optimize --list", &out), 0);
  for (const char* name : {"fold-constants", "fold-if", "fold-identity", "dead-code"})
    EXPECT_NE(out.find(name), std::string::npos) << out;
  const std::string dir = test::scratch_dir("optimize_cli_unknown");
  const std::string in = test::save_model(test::make_model(constant_if_model()), dir, "in.onnx");
  EXPECT_EQ(test::run_cli("optimize " + in + " " + dir + "/o.onnx --passes fold-if,nope", &out), 2);
  EXPECT_NE(out.find("no pass named 'nope'"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/o.onnx"));
}

TEST(OptimizeCli, RefusesAnInvalidModelNamingItsPath) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Add", {"x", "missing"}, {"y"});
  g.output("y", ElemType::Float, {2});
  const std::string dir = test::scratch_dir("optimize_cli_invalid");
  const std::string in = test::save_model(test::make_model(g), dir, "bad.onnx");
  std::string out;
  EXPECT_EQ(test::run_cli("optimize " + in + " " + dir + "/o.onnx", &out), 1);
  EXPECT_NE(out.find("bad.onnx"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/o.onnx"));
}

// Every level gives the same outputs; all is the default.
TEST(SessionOptimization, LevelsAgreeAndAllIsTheDefault) {
  EXPECT_EQ(SessionOptions().optimization, Optimization::all);
  const std::string path = test::save_model(test::make_model(constant_if_model()),
                                            test::scratch_dir("session_levels"), "m.onnx");
  for (Optimization level : {Optimization::none, Optimization::basic, Optimization::all}) {
    SessionOptions options;
    options.optimization = level;
    Session s(Model::load(path), options);
    auto out = s.run({{"x", f32({2}, {3, 4})}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 6}));
  }
  std::string out;
  EXPECT_EQ(test::run_cli("run " + path + " --optimize none", &out), 3) << out;  // needs x
  EXPECT_EQ(test::run_cli("run " + path + " --optimize fast", &out), 2);
  EXPECT_NE(out.find("--optimize: must be none, basic or all, got 'fast'"), std::string::npos)
      << out;
}

// The default session runs the pipeline: a Reshape of x into 3 elements that no output
// needs fails a plain run on a 2-element x, while the default session never runs it.
TEST(SessionOptimization, DefaultSessionsDropDeadCode) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {-1});
  g.initializer("three", test::i64({1}, {3}));
  g.node("Reshape", {"x", "three"}, {"unused"});
  g.node("Neg", {"x"}, {"y"});
  g.output("y", ElemType::Float, {-1});
  const std::string path = test::save_scratch(g, "session_dead_code");
  Session plain_session(Model::load(path), SessionOptions{1, false, Optimization::none});
  test::expect_bad_input([&] { plain_session.run({{"x", f32({2}, {1, 2})}}); });
  Session session(Model::load(path));
  EXPECT_EQ(floats_of(session.run({{"x", f32({2}, {1, 2})}})[0].second.tensor()),
            (std::vector<float>{-1, -2}));
}

// Sessions fuse by default (Conv + Relu runs as one FusedConv, their passes being private),
// while `bough optimize` writes the basic pipeline's model unless asked: no contrib
// operator in a saved file.
TEST(SessionOptimization, SessionsFuseButOptimizeWritesPortableModels) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 1, 3});
  g.initializer("w", f32({1, 1, 2}, {1, -1}));
  g.node("Conv", {"x", "w"}, {"c"});
  g.node("Relu", {"c"}, {"y"});
  g.output("y", ElemType::Float, {1, 1, 2});
  const std::string path = test::save_scratch(g, "session_fuses");
  std::string out;
  ASSERT_EQ(test::run_cli("bench " + path + " --iters 1 --warmup 0 --profile", &out), 0) << out;
  EXPECT_NE(out.find("FusedConv"), std::string::npos) << out;
  ASSERT_EQ(
      test::run_cli("bench " + path + " --iters 1 --warmup 0 --profile --optimize basic", &out), 0)
      << out;
  EXPECT_EQ(out.find("FusedConv"), std::string::npos) << out;
  const std::string saved = test::scratch_dir("session_fuses_saved") + "/o.onnx";
  ASSERT_EQ(test::run_cli("optimize " + path + " " + saved, &out), 0) << out;
  EXPECT_EQ(test::count_ops(saved, "FusedConv"), 0);
  EXPECT_EQ(test::count_ops(saved, "Relu"), 1);
  // x = [1, -2, 3], w = [1, -1]: Conv = [3, -5], Relu = [3, 0], whichever level runs.
  Session fused(Model::load(path));
  EXPECT_EQ(floats_of(fused.run({{"x", f32({1, 1, 3}, {1, -2, 3})}})[0].second.tensor()),
            (std::vector<float>{3, 0}));
}

TEST(SessionOptimization, TestDataTakesALevel) {
  const std::string suite = test::conformance_dir();
  if (suite.empty()) GTEST_SKIP() << "no conformance suite";
  std::string out;
  for (const char* level : {"none", "basic", "all"})
    EXPECT_EQ(test::run_cli(std::string("test-data --optimize ") + level + " " + suite +
                                "/test_if " + suite + "/test_loop11",
                            &out),
              0)
        << out;
  EXPECT_EQ(test::run_cli("test-data --optimize most " + suite + "/test_if", &out), 2) << out;
}

}  // namespace
}  // namespace bough
