// `bough show -o view.html`: the JSON the page draws (read back from the page with
// nlohmann::json) for the example model, worked out by hand from examples/make_example.py;
// hostile names stay inside their JSON strings; an OpenVINO TensorIterator is drawn with its
// body, and the If port maps of the example converted to OpenVINO IR as captures. Then --depth
// in .dot, long names as aliases, and .svg/.png refusing a picture too large to view.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test::shell_quoted;

const std::string kOpen = "<script type=\"application/json\" id=\"model\">";

// The page's model JSON; fails the test when the page has none.
json page_model(const std::string& html) {
  const size_t at = html.find(kOpen);
  EXPECT_NE(at, std::string::npos);
  if (at == std::string::npos) return json::object();
  const size_t from = at + kOpen.size(), to = html.find("</script>", from);
  return json::parse(html.substr(from, to - from));
}

json show_html(const std::string& model, const std::string& out, const std::string& more = "") {
  std::string text;
  EXPECT_EQ(test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(out) + more, &text),
            0)
      << text;
  return page_model(test::read_text(out));
}

// The graph at `path`, or null.
const json* graph_at(const json& m, const std::string& path) {
  for (const json& g : m["graphs"])
    if (g["path"] == path) return &g;
  return nullptr;
}

// The index of the item named `name` of kind `kind` in `g`, -1 when none.
int item_of(const json& g, const std::string& kind, const std::string& name) {
  for (size_t i = 0; i < g["items"].size(); ++i)
    if (g["items"][i]["k"] == kind && g["items"][i]["name"] == name) return static_cast<int>(i);
  return -1;
}

TEST(CliShowHtml, ExampleGraphsItemsCapturesAndTypes) {
  const std::string dir = test::scratch_dir("cli_show_html");
  const json m = show_html(test::source_dir() + "/examples/if_loop.onnx", dir + "/v.html");
  ASSERT_EQ(m["graphs"].size(), 4u);  // main, the Loop's body, the If's two branches
  EXPECT_EQ(m["open"], 0);
  const json* main = graph_at(m, "main");
  const json* body = graph_at(m, "main/Loop \"steps\"/body");
  const json* then = graph_at(m, "main/Loop \"steps\"/body/If \"even_or_odd\"/then_branch");
  const json* other = graph_at(m, "main/Loop \"steps\"/body/If \"even_or_odd\"/else_branch");
  ASSERT_TRUE(main && body && then && other);
  EXPECT_TRUE((*main)["owner"].is_null());
  EXPECT_EQ((*body)["attr"], "body");
  EXPECT_EQ((*body)["nodes"], 5);

  // main: inputs x and n, the Loop, outputs x_final and x_all; step and half not drawn.
  ASSERT_EQ((*main)["items"].size(), 5u);
  const int loop = item_of(*main, "op", "steps"), x = item_of(*main, "in", "x");
  ASSERT_GE(loop, 0);
  ASSERT_GE(x, 0);
  const json& loop_item = (*main)["items"][static_cast<size_t>(loop)];
  EXPECT_EQ(loop_item["op"], "Loop");
  EXPECT_EQ(loop_item["domain"], "ai.onnx");
  EXPECT_EQ(loop_item["version"], 17);
  EXPECT_EQ(loop_item["ins"],
            json::parse(R"j([["n","tensor(int64)[]"],["",""],["x","tensor(float)[3]"]])j"));
  EXPECT_EQ(loop_item["outs"][0], json::parse(R"j(["x_final","tensor(float)[3]"])j"));
  EXPECT_EQ(loop_item["r"], 1);
  EXPECT_EQ((*main)["items"][static_cast<size_t>(x)]["r"], 0);
  // x -> Loop, labelled with x's type.
  EXPECT_NE(std::find((*main)["edges"].begin(), (*main)["edges"].end(),
                      json::array({x, loop, "x", "tensor(float)[3]"})),
            (*main)["edges"].end())
      << (*main)["edges"];
  // The body's owner is the Loop item; its one subgraph is the body.
  const size_t body_index = (*main)["items"][static_cast<size_t>(loop)]["subs"][0];
  EXPECT_EQ(&m["graphs"][body_index], body);
  EXPECT_EQ((*body)["owner"], json::array({0, loop}));

  // Each branch reads the body's x_in by name: one port, one capture edge in the body from
  // x_in to the If, naming the branch and the port; step and half are initializers of main,
  // summarized on the node that reads them instead.
  const int x_in = item_of(*body, "in", "x_in"), gate = item_of(*body, "op", "even_or_odd");
  ASSERT_GE(x_in, 0);
  ASSERT_GE(gate, 0);
  for (const json* branch : {then, other}) {
    const int port = item_of(*branch, "cap", "x_in");
    ASSERT_GE(port, 0);
    EXPECT_EQ((*branch)["caps"], json::array({json::array({"x_in", port})}));
    size_t sub = 0;
    while (&m["graphs"][sub] != branch) ++sub;
    EXPECT_NE(std::find((*body)["edges"].begin(), (*body)["edges"].end(),
                        json::array({x_in, gate, "x_in", "tensor(float)[3]", sub, port})),
              (*body)["edges"].end())
        << (*body)["edges"];
  }
  const json& add = (*then)["items"][static_cast<size_t>(item_of(*then, "op", ""))];
  EXPECT_EQ(add["op"], "Add");
  ASSERT_EQ(add["consts"].size(), 1u);
  EXPECT_EQ(add["consts"][0][0], "step");
  EXPECT_EQ(add["consts"][0][1], "tensor(float)[3]  min 1  max 1  mean 1  [1, 1, 1]");
}

TEST(CliShowHtml, DepthOpensLevelsAndNodeIsRefused) {
  const std::string dir = test::scratch_dir("cli_show_html_depth");
  const std::string model = test::source_dir() + "/examples/if_loop.onnx";
  EXPECT_EQ(show_html(model, dir + "/v.html", " --depth 2")["open"], 2);
  std::string out;
  EXPECT_EQ(test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(dir + "/n.html") +
                              " --node 'main/Loop \"steps\"'",
                          &out),
            2)
      << out;
  EXPECT_FALSE(fs::exists(dir + "/n.html"));
}

// Names are hostile input: a name closing the script element stays a JSON string.
TEST(CliShowHtml, HostileNamesStayInsideTheirStrings) {
  const std::string dir = test::scratch_dir("cli_show_html_hostile");
  const std::string name = "</script><script>alert(\"x\")</script>&<b>";
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output(name, ElemType::Float, {2});
  g.node("Identity", {"x"}, {name}, name);
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  const std::string out = dir + "/v.html";
  const json m = show_html(model, out);
  const std::string html = test::read_text(out);
  EXPECT_EQ(test::count_of(html, "</script>"), 2u);  // the model's JSON and the page's script
  EXPECT_EQ(html.find("alert(\"x\")</script>"), std::string::npos);
  const json& main = m["graphs"][0];
  EXPECT_GE(item_of(main, "op", name), 0);
  EXPECT_GE(item_of(main, "out", name), 0);
}

// An OpenVINO TensorIterator is drawn as a node with its body as a subgraph.
TEST(CliShowHtml, OpenVinoTensorIteratorHasItsBody) {
  const std::string dir = test::scratch_dir("cli_show_html_openvino");
  const json m = show_html(
      test::source_dir() + "/tests/fixtures/openvino/corpus/ti_sliced_input.xml", dir + "/v.html");
  ASSERT_GE(m["graphs"].size(), 2u);
  const json& body = m["graphs"][1];
  ASSERT_TRUE(body["owner"].is_array());
  const json& owner =
      m["graphs"][body["owner"][0].get<size_t>()]["items"][body["owner"][1].get<size_t>()];
  EXPECT_EQ(owner["subs"], json::array({1}));
  EXPECT_GT(body["nodes"], 0);
}

// A value name over 40 characters is drawn as %~1 and explained once in a legend box.
TEST(CliShowHtml, LongNamesInDotAreAliasedWithALegend) {
  const std::string dir = test::scratch_dir("cli_show_long_names");
  const std::string name = "/model/layers.0/self_attn/q_proj/MatMul_output_0";  // 48 characters
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Relu", {"x"}, {name});
  g.node("Identity", {name}, {"y"});
  const std::string model = test::save_model(test::make_model(g), dir, "m.onnx");
  std::string out;
  ASSERT_EQ(
      test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(dir + "/m.dot"), &out), 0)
      << out;
  const std::string dot = test::read_text(dir + "/m.dot");
  EXPECT_EQ(test::count_of(dot, name), 1u) << dot;                   // in the legend only
  EXPECT_NE(dot.find("[label=\"%~1\"]"), std::string::npos) << dot;  // the edge Relu -> Identity
  EXPECT_NE(dot.find("legend [shape=note, label=\"names\\n%~1 = " + name + "\"]"),
            std::string::npos)
      << dot;
}

// The example converted to OpenVINO IR: the If's port maps (x_in into each body) read back as
// the captures they are, drawn as in the ONNX model.
TEST(CliShowHtml, OpenVinoIfPortMapsAreCaptures) {
  const std::string dir = test::scratch_dir("cli_show_html_openvino_if");
  std::string out;
  ASSERT_EQ(test::run_cli("convert " + shell_quoted(test::source_dir() + "/examples/if_loop.onnx") +
                              " " + shell_quoted(dir + "/m.xml"),
                          &out),
            0)
      << out;
  const json m = show_html(dir + "/m.xml", dir + "/v.html");
  const json* body = graph_at(m, "main/Loop \"steps\"/body");
  ASSERT_TRUE(body);
  size_t captures = 0;
  for (const json& e : (*body)["edges"])
    if (e.size() == 6 && e[2] == "x_in") ++captures;
  EXPECT_EQ(captures, 2u) << (*body)["edges"];
  for (const char* branch : {"then_branch", "else_branch"}) {
    const json* g =
        graph_at(m, "main/Loop \"steps\"/body/If \"even_or_odd\"/" + std::string(branch));
    ASSERT_TRUE(g) << branch;
    EXPECT_EQ((*g)["caps"], json::array({json::array({"x_in", item_of(*g, "cap", "x_in")})}));
  }
}

bool have_dot() {
  std::string out;
  return test::run_command("dot -V", &out) == 0;
}

// The .dot of examples/if_loop.onnx drawn with --depth `depth`.
std::string example_dot(const std::string& dir, int depth) {
  const std::string model = shell_quoted(test::source_dir() + "/examples/if_loop.onnx");
  const std::string dot = dir + "/d" + std::to_string(depth) + ".dot";
  std::string out;
  EXPECT_EQ(
      test::run_cli(
          "show " + model + " -o " + shell_quoted(dot) + " --depth " + std::to_string(depth), &out),
      0)
      << out;
  return test::read_text(dot);
}

// --depth 1 draws the Loop body and folds the If's branches (one node each), each fed x_in by
// a capture edge; --depth 0 folds the body (7 = 5 + 1 + 1 nodes), which captures nothing
// drawn (step and half are initializers).
TEST(CliShowHtml, DepthFoldsSubgraphsInDot) {
  const std::string dir = test::scratch_dir("cli_show_depth_dot");
  const std::string d1 = example_dot(dir, 1);
  EXPECT_EQ(test::count_of(d1, "subgraph cluster_"), 1u) << d1;
  EXPECT_EQ(test::count_of(d1, "1 node (folded)\\ncaptures x_in"), 2u) << d1;
  EXPECT_EQ(test::count_of(d1, "id=\"capture_"), 2u) << d1;
  const std::string d0 = example_dot(dir, 0);
  EXPECT_EQ(test::count_of(d0, "subgraph cluster_"), 0u) << d0;
  EXPECT_EQ(test::count_of(d0, "Loop \\\"steps\\\": body\\n7 nodes (folded)\""), 1u) << d0;
  EXPECT_EQ(test::count_of(d0, "id=\"capture_"), 0u) << d0;
}

// 200 Identities side by side: about 200 x 80 px wide at Graphviz's sizes, over the 10,000 px
// a side .svg/.png draw. Refused with the ways out, leaving no file; .html draws it.
TEST(CliShowHtml, PictureTooLargeIsRefusedWithSuggestions) {
  if (!have_dot()) GTEST_SKIP() << "Graphviz's dot is not installed (scripts/setup)";
  const std::string dir = test::scratch_dir("cli_show_too_large");
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2});
  for (int i = 0; i < 200; ++i) {
    const std::string y = "y" + std::to_string(i);
    g.output(y, ElemType::Float, {2});
    g.node("Identity", {"x"}, {y});
  }
  const std::string model = test::save_model(test::make_model(g), dir, "wide.onnx");
  for (const char* picture : {"/w.svg", "/w.png"}) {
    std::string out;
    EXPECT_EQ(
        test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(dir + picture), &out),
        2)
        << out;
    EXPECT_NE(out.find("over 10000 px a side"), std::string::npos) << out;
    EXPECT_NE(out.find("--depth N or --node PATH, or write -o PICTURE.html"), std::string::npos)
        << out;
  }
  std::string out;
  EXPECT_EQ(
      test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(dir + "/w.html"), &out),
      0)
      << out;
  size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 2u);  // wide.onnx and w.html: no picture, no temporary file
}

// A chain of 5,000 Identities: 5,002 DOT nodes with x and y, past the 4,340 boxes of 96 x 96
// px that fit in 40 million pixels; refused before Graphviz runs (none needed).
TEST(CliShowHtml, ManyNodesAreRefusedBeforeGraphviz) {
  const std::string dir = test::scratch_dir("cli_show_many_nodes");
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  std::string previous = "x";
  for (int i = 0; i < 5000; ++i) {
    const std::string next = i == 4999 ? "y" : "v" + std::to_string(i);
    g.node("Identity", {previous}, {next});
    previous = next;
  }
  const std::string model = test::save_model(test::make_model(g), dir, "chain.onnx");
  std::string out;
  EXPECT_EQ(
      test::run_cli("show " + shell_quoted(model) + " -o " + shell_quoted(dir + "/c.svg"), &out), 2)
      << out;
  EXPECT_NE(out.find("the picture would be 5002 boxes of at least 96 x 96 px"), std::string::npos)
      << out;
  EXPECT_FALSE(fs::exists(dir + "/c.svg"));
}

}  // namespace
}  // namespace bough
