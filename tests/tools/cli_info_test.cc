// `bough info`'s summary (graphs, nodes per operator, parameters, initializers' first values),
// element-type attributes by name, --docs, --depth, and long names shortened with a legend.
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <sstream>

#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

// y = Cast<float16>(x * a + b): a float[2, 3] (6 values), b int64[] — 7 parameters, 32 bytes.
std::string documented_model(const std::string& dir) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2, 3});
  g.initializer("a", test::f32({2, 3}, {0.5f, 1, 1.5f, 2, 2.5f, 3}));
  g.initializer("b", test::i64({}, {7}));
  g.output("y", ElemType::Float16, {2, 3});
  g.node("Mul", {"x", "a"}, {"xa"}, "scale");
  g.node("Cast", {"b"}, {"bf"}, "to_float");
  test::set_int(g.graph_node_last(), "to", 1);
  g.node("Add", {"xa", "bf"}, {"sum"}, "shift").set_doc_string("adds the offset");
  g.node("Cast", {"sum"}, {"y"}, "half");
  test::set_int(g.graph_node_last(), "to", 10);
  g.mutable_proto().set_doc_string("the main graph");
  onnxpb::ModelProto m = test::make_model(g);
  m.set_doc_string("a model with docs");
  return test::save_model(m, dir, "documented.onnx");
}

TEST(CliInfo, SummaryCountsNodesParametersAndShowsInitializers) {
  const std::string path = test::shell_quoted(documented_model(test::scratch_dir("cli_info")));
  std::string out;
  ASSERT_EQ(test::run_cli("info " + path, &out), 0) << out;
  EXPECT_NE(out.find("      to = float16\n"), std::string::npos) << out;
  EXPECT_NE(out.find("      to = float\n"), std::string::npos) << out;
  const std::string summary = out.substr(out.find("summary\n"));
  EXPECT_EQ(summary,
            "summary\n"
            "  graphs: 1 (main and 0 subgraphs)\n"
            "  nodes: 4 (Cast 2, Add 1, Mul 1)\n"
            "  parameters: 7 in 2 initializers (32 bytes)\n"
            "  initializer %a: tensor(float)[2,3] [0.5, 1, 1.5, 2, 2.5, ...]\n"
            "  initializer %b: tensor(int64)[] [7]\n");
  ASSERT_EQ(test::run_cli("info --initializers 1 --docs " + path, &out), 0) << out;
  EXPECT_NE(out.find("  initializer %a: tensor(float)[2,3] [0.5, 1, 1.5, 2, 2.5, ...]\n"
                     "  ... 1 more initializer (--initializers N shows more)\n"
                     "  doc of the model: a model with docs\n"
                     "  doc of main: the main graph\n"
                     "  doc of main/Add \"shift\": adds the offset\n"),
            std::string::npos)
      << out;
  ASSERT_EQ(test::run_cli("info --no-summary " + path, &out), 0) << out;
  EXPECT_EQ(out.find("summary"), std::string::npos) << out;
  EXPECT_EQ(test::run_cli("info --initializers=-1 " + path, &out), 2) << out;
  EXPECT_NE(out.find("--initializers: must be at least 0, got -1"), std::string::npos) << out;
}

// examples/if_loop.onnx: a Loop whose body holds Mod, Equal, If, two Identities, and the If's
// branches one node each.
TEST(CliInfo, DepthFoldsDeeperSubgraphs) {
  const std::string path = test::shell_quoted(test::source_dir() + "/examples/if_loop.onnx");
  std::string out;
  ASSERT_EQ(test::run_cli("info --depth 0 " + path, &out), 0) << out;
  EXPECT_NE(out.find("      body:\n        graph \"body\" folded: 7 nodes\n  output %x_final"),
            std::string::npos)
      << out;
  ASSERT_EQ(test::run_cli("info --depth 1 " + path, &out), 0) << out;
  EXPECT_NE(out.find("graph \"halve\" folded: 1 node\n"), std::string::npos) << out;
  EXPECT_NE(out.find("graph \"add_step\" folded: 1 node\n"), std::string::npos) << out;
  EXPECT_NE(out.find("%parity: tensor(int64)[] = Mod(%i, %two)"), std::string::npos) << out;
  ASSERT_EQ(test::run_cli("info --depth 2 " + path, &out), 0) << out;
  EXPECT_EQ(out.find("folded"), std::string::npos) << out;
}

// Exporter-style value names: q (48 characters) is the start of q_scaled (55), w has 49;
// exactly40 has 40 characters and stays as it is.
const std::string kQ = "/model/layers.0/self_attn/q_proj/MatMul_output_0";
const std::string kQScaled = kQ + "_scaled";
const std::string kW = "model.layers.0.self_attn.q_proj.weight_transposed";
const std::string kExactly40 = "/model/layers.0/self_attn/k_proj/Add_out";

std::string long_names_model(const std::string& dir) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2, 2});
  g.initializer(kW, test::f32({2, 2}, {1, 2, 3, 4}));
  g.output("y", ElemType::Float, {2, 2});
  g.node("MatMul", {"x", kW}, {kQ});
  g.node("Mul", {kQ, kQ}, {kQScaled});
  g.node("Neg", {kQScaled}, {kExactly40});
  g.node("Identity", {kExactly40}, {"y"});
  return test::save_model(test::make_model(g), dir, "long_names.onnx");
}

TEST(CliInfo, LongNamesBecomeAliasesWithALegend) {
  ASSERT_EQ(kQ.size(), 48u);
  ASSERT_EQ(kExactly40.size(), 40u);
  const std::string path =
      test::shell_quoted(long_names_model(test::scratch_dir("cli_info_names")));
  std::string full, shortened;
  ASSERT_EQ(test::run_cli("info --full-names " + path, &full), 0) << full;
  ASSERT_EQ(test::run_cli("info " + path, &shortened), 0) << shortened;
  EXPECT_EQ(full.find("\nnames\n"), std::string::npos) << full;
  EXPECT_NE(full.find("%" + kQScaled), std::string::npos) << full;

  // The legend closes the output: three aliases, the 40-character name not among them.
  const size_t legend = shortened.rfind("\nnames\n");
  ASSERT_NE(legend, std::string::npos) << shortened;
  const std::string body = shortened.substr(0, legend + 1);
  std::map<std::string, std::string> alias_of;  // full name -> alias
  std::istringstream lines(shortened.substr(legend + 7));
  std::string line;
  while (std::getline(lines, line)) {
    const size_t eq = line.find(" = ");
    ASSERT_EQ(line.rfind("  %~", 0), 0u) << line;
    ASSERT_NE(eq, std::string::npos) << line;
    alias_of[line.substr(eq + 3)] = line.substr(2, eq - 2);
  }
  ASSERT_EQ(alias_of.size(), 3u) << shortened;
  EXPECT_EQ(alias_of.count(kQ) + alias_of.count(kQScaled) + alias_of.count(kW), 3u) << shortened;
  // No long name is left in the body; the 40-character one is kept in full.
  EXPECT_EQ(body.find(kQ), std::string::npos) << body;
  EXPECT_EQ(body.find(kW), std::string::npos) << body;
  EXPECT_NE(body.find("%" + kExactly40), std::string::npos) << body;
  // Numbered in order of first appearance.
  EXPECT_LT(body.find("%~1"), body.find("%~2")) << body;
  EXPECT_LT(body.find("%~2"), body.find("%~3")) << body;
  // Putting the full names back gives the --full-names output, so each alias stands where
  // its name stood (q_scaled was not cut into q's alias plus "_scaled").
  std::string restored = body;
  for (const auto& [name, alias] : alias_of) {
    std::string out;
    for (size_t i = 0; i < restored.size();) {
      const bool match = restored.compare(i, alias.size(), alias) == 0 &&
                         (i + alias.size() == restored.size() ||
                          !std::isdigit(static_cast<unsigned char>(restored[i + alias.size()])));
      out += match ? "%" + name : std::string(1, restored[i]);
      i += match ? alias.size() : 1;
    }
    restored = out;
  }
  EXPECT_EQ(restored, full);
  EXPECT_EQ(test::count_of(body, alias_of[kQ]),
            test::count_of(full, "%" + kQ) - test::count_of(full, "%" + kQScaled));
}

}  // namespace
}  // namespace bough
