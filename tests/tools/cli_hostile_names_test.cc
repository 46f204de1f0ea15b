// Hostile names and sizes through `bough run`, `info` and `infer` (issue 29): a newline in an
// output name must not forge lines on stdout, bytes that are not UTF-8 must not break --json,
// 20,000 output names that map to one file name take linear time, and @random for a huge dimension
// gets bough's own message.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using test::shell_quoted;

// x: float[2] -> Identity -> each of `names`.
std::string identities(const std::string& dir, const std::vector<std::string>& names) {
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  for (const std::string& name : names) {
    g.node("Identity", {"x"}, {name});
    g.output(name, ElemType::Float, {2});
  }
  return test::save_model(test::make_model(g), dir, "m.onnx");
}

TEST(CliHostileNames, NewlineInAnOutputNameCannotForgeLines) {
  const std::string dir = test::scratch_dir("cli_names_newline");
  const std::string forged = "y\nz: tensor(float)[2] [6, 6]";
  const std::string model = identities(dir, {forged, "bad\xff\x1b"});
  const std::string x = test::save_npy_f32(dir, "x.npy", {2}, {1, 2});
  std::string out;
  ASSERT_EQ(test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(x), &out), 0)
      << out;
  EXPECT_EQ(out,
            "y\\x0az: tensor(float)[2] [6, 6]: tensor(float)[2] [1, 2]\n"
            "bad\\xff\\x1b: tensor(float)[2] [1, 2]\n");
  ASSERT_EQ(
      test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(x) + " --json", &out), 0)
      << out;
  EXPECT_NE(out.find("\"name\": \"y\\nz: tensor(float)[2] [6, 6]\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"name\": \"bad\\ufffd\\u001b\""), std::string::npos) << out;
  EXPECT_EQ(out.find('\xff'), std::string::npos) << out;
}

// A newline in a name never starts a line of `check`'s output: an error's place escapes it,
// and the lines its message spans are indented under bough's own first line.
TEST(CliHostileNames, CheckErrorsCannotForgeLines) {
  const std::string dir = test::scratch_dir("cli_names_check");
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Identity", {"u\nm.onnx: forged line"}, {"y"}, "n\nm.onnx: forged place");
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  std::string out;
  EXPECT_NE(test::run_cli("check " + shell_quoted(model), &out), 0) << out;
  EXPECT_EQ(out.find("\nm.onnx: forged"), std::string::npos) << out;
  EXPECT_NE(out.find("u\n  m.onnx: forged line"), std::string::npos) << out;
  EXPECT_NE(out.find("n\\x0am.onnx: forged place"), std::string::npos) << out;
}

TEST(CliHostileNames, InfoAndInferEscapeNames) {
  const std::string dir = test::scratch_dir("cli_names_show");
  const std::string model = identities(dir, {"y\nforged line"});
  for (const char* command : {"info ", "infer "}) {
    std::string out;
    ASSERT_EQ(test::run_cli(command + shell_quoted(model), &out), 0) << out;
    EXPECT_EQ(out.find("\nforged line"), std::string::npos) << command << out;
    EXPECT_NE(out.find("y\\x0aforged line"), std::string::npos) << command << out;
  }
}

// Seconds `bough run` takes to write one file per output of a model of Identities named
// `names` into DIR/out.
double seconds_to_write(const std::string& dir, const std::vector<std::string>& names) {
  const std::string model = identities(dir, names);
  const std::string x = test::save_npy_f32(dir, "x.npy", {2}, {1, 2});
  const auto start = std::chrono::steady_clock::now();
  std::string out;
  EXPECT_EQ(test::run_cli("run " + shell_quoted(model) + " -i x=" + shell_quoted(x) +
                              " --print none --output-dir " + shell_quoted(dir + "/out"),
                          &out),
            0)
      << out.substr(0, 2000);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// 20,000 names of four characters no file name keeps all map to "y_____"; the suffixes were
// counted from 2 for each name (over 20 s where 20,000 distinct names take 2). Linear now:
// measured against the same run with distinct names, so that the bound holds on a loaded
// machine and under ASan alike.
TEST(CliHostileNames, OutputDirWithTwentyThousandCollidingNamesIsLinear) {
  const std::string dir = test::scratch_dir("cli_names_collide");
  const std::string unsafe = "#$%&*+,:;=?@!~";
  std::vector<std::string> names, distinct;
  for (size_t i = 0; names.size() < 20000; ++i) {
    std::string name = "y";
    for (size_t k = 0, v = i; k < 4; ++k, v /= unsafe.size()) name += unsafe[v % unsafe.size()];
    names.push_back(name);
    distinct.push_back("y" + std::to_string(i));
  }
  const double colliding = seconds_to_write(dir, names);
  const double control = seconds_to_write(test::scratch_dir("cli_names_distinct"), distinct);
  EXPECT_LT(colliding, 3 * control + 1) << "distinct names: " << control << " s";
  // The first keeps the safe name, the others get _2 ... _20000, and names.json maps back.
  EXPECT_TRUE(fs::exists(dir + "/out/y____.npy"));
  EXPECT_TRUE(fs::exists(dir + "/out/y_____2.npy"));
  EXPECT_TRUE(fs::exists(dir + "/out/y_____20000.npy"));
  EXPECT_FALSE(fs::exists(dir + "/out/y_____20001.npy"));
  const std::string map = test::read_text(dir + "/out/names.json");
  EXPECT_NE(map.find("\"y_____20000.npy\": \"" + names.back() + "\""), std::string::npos);
}

TEST(CliHostileNames, RandomInputOfAHugeDimensionIsBoughsOwnMessage) {
  const std::string dir = test::scratch_dir("cli_random_huge");
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {999999999999});
  g.node("Identity", {"x"}, {"y"});
  g.output("y", ElemType::Float, {999999999999});
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  std::string out;
  EXPECT_NE(test::run_cli("run " + shell_quoted(model) + " -i x=@random", &out), 0);
  EXPECT_NE(out.find("out of memory"), std::string::npos) << out;
  EXPECT_EQ(out.find("bad_alloc"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough
