// `bough run` on conformance tests through their .pb files, with --output-dir: every model
// whose inputs are sequences or optionals, and one model per kind of output the suite has
// (each element type, sequences, optionals). The files written are read back and compared
// with the suite's expected outputs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "bough/session.h"
#include "formats/npy/npy.h"
#include "formats/onnx/tensor_proto.h"
#include "ir/graph.h"
#include "test_paths.h"
#include "tools/cli_util.h"
#include "util/compare.h"

namespace bough {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> passing_tests() {
  std::ifstream in(test::source_dir() + "/tests/conformance/passing.txt");
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

onnx::ProtoKind kind_of(const ir::Type& t) {
  if (t.kind == ir::Type::Kind::Sequence) return onnx::ProtoKind::Sequence;
  if (t.kind == ir::Type::Kind::Optional) return onnx::ProtoKind::Optional;
  return onnx::ProtoKind::Tensor;
}

// The declared type without its shapes: "tensor(float)", "optional(seq(tensor(int64)))".
std::string kind_key(const ir::Type& t) {
  std::string out;
  int depth = 0;
  for (char c : ir::to_string(t)) {
    depth += c == '[';
    if (!depth) out += c;
    depth -= c == ']';
  }
  return out;
}

// Runs test folder `dir` (its first data set) through the CLI into a fresh output folder and
// compares each file written with the expected output. Returns "" or what went wrong.
std::string run_through_files(const fs::path& dir) {
  const Model model = Model::load((dir / "model.onnx").string());
  const ir::Graph& g = *model.ir().graph;
  const fs::path set = dir / "test_data_set_0";
  std::string args = "run " + test::shell_quoted((dir / "model.onnx").string()) + " --print none";
  size_t index = 0;
  for (const ir::Edge* input : g.inputs) {
    if (input->data) continue;
    args +=
        " -i " + test::shell_quoted(input->name + "=" +
                                    (set / ("input_" + std::to_string(index++) + ".pb")).string());
  }
  const std::string out_dir = test::scratch_dir("cli_conf_" + dir.filename().string()) + "/out";
  std::string output;
  if (int rc = test::run_cli(args + " --output-dir " + test::shell_quoted(out_dir), &output))
    return "exit " + std::to_string(rc) + ": " + output;
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const std::string name = g.outputs[i]->name;
    const fs::path npy = fs::path(out_dir) / (name + ".npy"),
                   pb = fs::path(out_dir) / (name + ".pb");
    Value got;
    if (fs::exists(npy))
      got = npy::read_npy(npy.string());
    else if (fs::exists(pb))
      got = onnx::read_value_file(pb.string(), kind_of(g.outputs[i]->type));
    else
      return "no file for output '" + name + "'";
    Value want = onnx::read_value_file((set / ("output_" + std::to_string(i) + ".pb")).string(),
                                       kind_of(g.outputs[i]->type));
    std::string diff = compare_values(want, got, Tolerance{});
    if (!diff.empty()) return "output '" + name + "': " + diff;
  }
  return "";
}

class CliConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::conformance_dir().empty()) GTEST_SKIP() << "no conformance suite";
  }
};

TEST_F(CliConformance, SequenceAndOptionalInputsThroughPbFiles) {
  int ran = 0;
  for (const std::string& name : passing_tests()) {
    const fs::path dir = fs::path(test::conformance_dir()) / name;
    if (!fs::exists(dir / "model.onnx")) continue;
    const Model model = Model::load((dir / "model.onnx").string());
    bool wanted = false;
    for (const ir::Edge* input : model.ir().graph->inputs)
      wanted |= !input->data && input->type.kind != ir::Type::Kind::Tensor;
    if (!wanted) continue;
    EXPECT_EQ(run_through_files(dir), "") << name;
    ++ran;
  }
  // The suite holds dozens (sequence ops, optionals, Loops over sequences).
  EXPECT_GE(ran, 20);
}

TEST_F(CliConformance, OutputDirRoundTripsEveryOutputKind) {
  std::set<std::string> kinds;
  for (const std::string& name : passing_tests()) {
    const fs::path dir = fs::path(test::conformance_dir()) / name;
    if (!fs::exists(dir / "model.onnx")) continue;
    const Model model = Model::load((dir / "model.onnx").string());
    bool new_kind = false;
    for (const ir::Edge* output : model.ir().graph->outputs)
      new_kind |= kinds.insert(kind_key(output->type)).second;
    if (new_kind) {
      EXPECT_EQ(run_through_files(dir), "") << name;
    }
  }
  // Among them, the kinds numpy cannot hold.
  for (const char* kind : {"tensor(bfloat16)", "tensor(float8e4m3fn)", "tensor(int4)",
                           "tensor(string)", "seq(tensor(int64))", "optional(seq(tensor(float)))"})
    EXPECT_TRUE(kinds.count(kind)) << kind;
  EXPECT_GE(kinds.size(), 25u);  // 28 in the suite of ONNX 1.17
}

}  // namespace
}  // namespace bough
