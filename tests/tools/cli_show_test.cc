// `bough show`: the SVG of each control-flow conformance model has one cluster per subgraph
// and one capture edge per (outer value, subgraph reading it by name), both counted by onnx
// in Python; on the example and one conformance model, the same worked out by hand, for the
// whole model and for --node.
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
  EXPECT_EQ(test::count_of(svg, "class=\"cluster\""), 3u) << svg;  // body, then_branch, else_branch
  EXPECT_EQ(test::count_of(svg, "id=\"capture_"), 2u) << svg;
  EXPECT_NE(svg.find("If &quot;even_or_odd&quot;: then_branch"), std::string::npos);
  EXPECT_NE(svg.find("If &quot;even_or_odd&quot;: else_branch"), std::string::npos);
  EXPECT_NE(svg.find("half: tensor(float)[3]"), std::string::npos);  // folded initializer
  // .dot needs no Graphviz; an existing picture is kept without --force.
  ASSERT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.dot"), &out), 0) << out;
  EXPECT_EQ(test::count_of(test::read_text(dir + "/e.dot"), "subgraph cluster_"), 3u);
  EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.dot"), &out), 4) << out;
  EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/e.txt"), &out), 2) << out;
  EXPECT_NE(out.find("-o: the picture must end in .svg, .png, .dot or .html"), std::string::npos)
      << out;
}

TEST(CliShow, EveryControlFlowConformanceModelHasAClusterPerSubgraphAndItsCaptureEdges) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup)";
  if (test::conformance_dir().empty()) GTEST_SKIP() << "no conformance suite";
  const std::string dir = test::scratch_dir("cli_show_conformance");
  // onnx counts, for each model with subgraphs, its subgraphs and the (outer value, subgraph)
  // pairs where a subgraph's nodes or outputs read a value of an enclosing graph by name;
  // initializers (inputs with a default too) are folded into labels and have no edge. One
  // line "NAME SUBGRAPHS CAPTURES" per model.
  std::ofstream(dir + "/count.py") << R"(import onnx, os, sys
root = sys.argv[1]
def walk(g, outer):
    inits = {t.name for t in g.initializer} | {t.values.name for t in g.sparse_initializer}
    defined = {i.name for i in g.input} | inits | {o for n in g.node for o in n.output if o}
    subgraphs = captures = 0
    if outer:
        read = {i for n in g.node for i in n.input if i} | {o.name for o in g.output}
        for name in read - defined:
            for names, folded in reversed(outer):
                if name in names:
                    captures += name not in folded
                    break
    for node in g.node:
        for a in node.attribute:
            for s in ([a.g] if a.type == onnx.AttributeProto.GRAPH else list(a.graphs)):
                n, c = walk(s, outer + [(defined, inits)])
                subgraphs += 1 + n
                captures += c
    return subgraphs, captures
for line in open(sys.argv[2]):
    name = line.strip()
    path = os.path.join(root, name, 'model.onnx')
    if name and os.path.exists(path):
        n, c = walk(onnx.load(path, load_external_data=False).graph, [])
        if n:
            print(name, n, c)
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
  size_t expected, captures, models = 0, with_captures = 0;
  while (lines >> name >> expected >> captures) {
    std::string out;
    const std::string svg = dir + "/" + name + ".svg";
    ASSERT_EQ(
        test::run_cli("show " + shell_quoted(test::conformance_dir() + "/" + name + "/model.onnx") +
                          " -o " + shell_quoted(svg),
                      &out),
        0)
        << name << ": " << out;
    const std::string text = test::read_text(svg);
    EXPECT_EQ(test::count_of(text, "class=\"cluster\""), expected) << name;
    EXPECT_EQ(test::count_of(text, "id=\"capture_"), captures) << name;
    ++models;
    with_captures += captures > 0;
  }
  EXPECT_GE(models, 20u);
  EXPECT_GE(with_captures, 5u);
}

// --node on the example. The body holds the If, whose branches each read the body's x_in
// (step and half are initializers, folded): drawn alone, x_in is the body's own input, so
// 3 clusters and 2 capture edges and nothing from outside. One branch alone: 1 cluster and
// x_in from outside with 1 capture edge. The If's path: both branches, x_in drawn once
// outside and entering each (2 edges).
TEST(CliShow, NodeDrawsOneSubgraphWithItsCapturesFromOutside) {
  const std::string dir = test::scratch_dir("cli_show_node");
  const std::string model = shell_quoted(test::source_dir() + "/examples/if_loop.onnx");
  auto draw = [&](const std::string& path, const std::string& file) {
    std::string out;
    EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/" + file) + " --node " +
                                shell_quoted(path),
                            &out),
              0)
        << path << ": " << out;
    return test::read_text(dir + "/" + file);
  };
  const std::string body = draw("main/Loop \"steps\"/body", "body.dot");
  EXPECT_EQ(test::count_of(body, "subgraph cluster_"), 3u) << body;
  EXPECT_EQ(test::count_of(body, "id=\"capture_"), 2u) << body;
  EXPECT_EQ(test::count_of(body, "(from outside)"), 0u) << body;
  EXPECT_EQ(body.find("label=\"Loop \\\"steps\\\"\"]"), std::string::npos)
      << body;  // the Loop is not drawn

  const std::string then =
      draw("main/Loop \"steps\"/body/If \"even_or_odd\"/then_branch", "then.dot");
  EXPECT_EQ(test::count_of(then, "subgraph cluster_"), 1u) << then;
  EXPECT_EQ(test::count_of(then, "id=\"capture_"), 1u) << then;
  EXPECT_EQ(test::count_of(then, "x_in\\ntensor(float)[3]\\n(from outside)"), 1u) << then;
  EXPECT_EQ(then.find("Mul"), std::string::npos) << then;  // the else branch is not drawn

  const std::string both = draw("main/Loop \"steps\"/body/If \"even_or_odd\"", "if.dot");
  EXPECT_EQ(test::count_of(both, "subgraph cluster_"), 2u) << both;
  EXPECT_EQ(test::count_of(both, "id=\"capture_"), 2u) << both;
  EXPECT_EQ(test::count_of(both, "(from outside)"), 1u) << both;

  // An unknown path is a usage error listing the model's subgraph paths.
  std::string out;
  EXPECT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/x.dot") +
                              " --node 'main/Loop \"steps\"/bodyy'",
                          &out),
            2)
      << out;
  EXPECT_NE(out.find("--node: "), std::string::npos) << out;
  EXPECT_NE(out.find("has no subgraph or node 'main/Loop \"steps\"/bodyy'"), std::string::npos)
      << out;
  // The list is indented under the error's first line.
  EXPECT_NE(out.find("\n    main/Loop \"steps\"/body\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\n    main/Loop \"steps\"/body/If \"even_or_odd\"/then_branch\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\n    main/Loop \"steps\"/body/If \"even_or_odd\"/else_branch"),
            std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(dir + "/x.dot"));
}

// Range expanded into a Loop (onnx's test_range_float_type_positive_delta_expanded): the
// unnamed Loop's body reads the main graph's input delta by name, nothing else from outside.
// Whole: 1 cluster, 1 capture edge from delta's input node. --node main/Loop/body or the node
// main/Loop: 1 cluster, delta drawn outside with 1 capture edge.
TEST(CliShow, NodeOnAConformanceLoop) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup)";
  if (test::conformance_dir().empty()) GTEST_SKIP() << "no conformance suite";
  const std::string dir = test::scratch_dir("cli_show_node_conformance");
  const std::string model = shell_quoted(
      test::conformance_dir() + "/test_range_float_type_positive_delta_expanded/model.onnx");
  std::string out;
  ASSERT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/all.svg"), &out), 0)
      << out;
  const std::string all = test::read_text(dir + "/all.svg");
  EXPECT_EQ(test::count_of(all, "class=\"cluster\""), 1u) << all;
  EXPECT_EQ(test::count_of(all, "id=\"capture_"), 1u) << all;
  EXPECT_EQ(test::count_of(all, "(from outside)"), 0u) << all;
  for (const std::string path : {"main/Loop/body", "main/Loop"}) {
    ASSERT_EQ(test::run_cli("show " + model + " -o " + shell_quoted(dir + "/body.svg") +
                                " --force --node " + path,
                            &out),
              0)
        << path << ": " << out;
    const std::string svg = test::read_text(dir + "/body.svg");
    EXPECT_EQ(test::count_of(svg, "class=\"cluster\""), 1u) << path << svg;
    EXPECT_EQ(test::count_of(svg, "id=\"capture_"), 1u) << path << svg;
    // The outside node, the port, and the labels of the capture edge and of port -> Add.
    EXPECT_EQ(test::count_of(svg, ">delta</text>"), 4u) << path << svg;
    EXPECT_EQ(test::count_of(svg, ">(from outside)</text>"), 1u) << path << svg;
    EXPECT_EQ(test::count_of(svg, ">Sub</text>"), 0u)
        << path << svg;  // the main graph is not drawn
  }
}

}  // namespace
}  // namespace bough
