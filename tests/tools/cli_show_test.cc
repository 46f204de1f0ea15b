// `bough show`: the SVG of each control-flow conformance model has one cluster per subgraph
// (counted by onnx in Python); on the example, the capture edges worked out by hand.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using test::shell_quoted;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool have_dot() {
  std::string out;
  return test::run_command("dot -V", &out) == 0;
}

// examples/if_loop.onnx: a Loop body holding an If whose branches read the body's x_in (two
// captures drawn) and the main graph's initializers half and step (folded into the labels).
TEST(CliShow, ExampleHasNestedClustersAndCaptureEdges) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup)";
  const std::string dir = test::scratch_dir("cli_show");
  const std::string model = shell_quoted(test::source_dir() + "/examples/if_loop.onnx");
  std::string out;
  ASSERT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.svg"), &out), 0) << out;
  const std::string svg = test::read_text(dir + "/e.svg");
  EXPECT_EQ(count(svg, "class=\"cluster\""), 3u) << svg;  // body, then_branch, else_branch
  EXPECT_EQ(count(svg, "id=\"capture_"), 2u) << svg;
  EXPECT_NE(svg.find("If &quot;even_or_odd&quot;: then_branch"), std::string::npos);
  EXPECT_NE(svg.find("If &quot;even_or_odd&quot;: else_branch"), std::string::npos);
  EXPECT_NE(svg.find("half: tensor(float)[3]"), std::string::npos);  // folded initializer
  // .dot needs no Graphviz; an existing picture is kept without --force.
  ASSERT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.dot"), &out), 0) << out;
  EXPECT_EQ(count(test::read_text(dir + "/e.dot"), "subgraph cluster_"), 3u);
  EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.dot"), &out), 4) << out;
  EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.txt"), &out), 2) << out;
  EXPECT_NE(out.find("-o: the picture must end in .svg, .png or .dot"), std::string::npos) << out;
}

TEST(CliShow, EveryControlFlowConformanceModelHasAClusterPerSubgraph) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup)";
  if (test::conformance_dir().empty()) GTEST_SKIP() << "no conformance suite";
  const std::string dir = test::scratch_dir("cli_show_conformance");
  // onnx counts the subgraphs of each model: one line "NAME COUNT" per model that has any.
  std::ofstream(dir + "/count.py") << R"(import onnx, os, sys
root = sys.argv[1]
def subgraphs(g):
    n = 0
    for node in g.node:
        for a in node.attribute:
            for s in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                n += 1 + subgraphs(s)
    return n
for line in open(sys.argv[2]):
    name = line.strip()
    path = os.path.join(root, name, 'model.onnx')
    if name and os.path.exists(path):
        n = subgraphs(onnx.load(path, load_external_data=False).graph)
        if n:
            print(name, n)
)";
  std::string counts;
  ASSERT_EQ(
      test::run_command("/usr/bin/python3 " + shell_quoted(dir + "/count.py") + " " +
                            shell_quoted(test::conformance_dir()) + " " +
                            shell_quoted(test::source_dir() + "/tests/conformance/passing.txt"),
                        &counts),
      0)
      << counts;
  std::istringstream lines(counts);
  std::string name;
  size_t expected, models = 0;
  while (lines >> name >> expected) {
    std::string out;
    const std::string svg = dir + "/" + name + ".svg";
    ASSERT_EQ(
        test::run_cli("show " + shell_quoted(test::conformance_dir() + "/" + name + "/model.onnx") +
                          " -o " + shell_quoted(svg),
                      &out),
        0)
        << name << ": " << out;
    EXPECT_EQ(count(test::read_text(svg), "class=\"cluster\""), expected) << name;
    ++models;
  }
  EXPECT_GE(models, 20u);
}

}  // namespace
}  // namespace bough
