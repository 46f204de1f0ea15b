// `bough info`'s summary (graphs, nodes per operator, parameters, initializers' first values),
// element-type attributes by name, and --docs.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace bough
