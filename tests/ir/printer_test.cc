// The IR printer (src/ir/printer.h) through `bough info`, against a checked-in golden file
// written by hand from the model below: an If whose then-branch holds a Loop whose body
// reads values two levels up, so captures appear at each level they pass through.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "bough/session.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::GraphBuilder;

// main:   xw = x * w;  y = If(c) { Loop n times: v += w, scan v * x } else { LeakyRelu(x) }
//         yt = Transpose(y)
// The body reads w (an initializer of main) and x (an input of main); the then-branch
// reads n and xw. xw's type comes from a value_info entry of main, which its captures
// must show too.
GraphBuilder nested_model() {
  GraphBuilder body("body_g");
  body.input("i", ElemType::Int64)
      .input("cond_in", ElemType::Bool)
      .input("v_in", ElemType::Float, {2, 3});
  body.node("Add", {"v_in", "w"}, {"v_next"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.node("Mul", {"v_next", "x"}, {"scan"}, "per_step");
  body.output("cond_out", ElemType::Bool)
      .output("v_next", ElemType::Float, {2, 3})
      .output("scan", ElemType::Float, {2, 3});

  GraphBuilder then_g("then_g");
  test::set_graph(then_g.node("Loop", {"n", "", "xw"}, {"final", "scans"}, "steps"), "body", body);
  then_g.output("final", ElemType::Float, {2, 3});

  GraphBuilder else_g("else_g");
  test::set_float(else_g.node("LeakyRelu", {"x"}, {"leaky"}), "alpha", 0.25f);
  else_g.output_untyped("leaky");

  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3}).input("c", ElemType::Bool).input("n", ElemType::Int64);
  g.initializer("w", test::f32({3}, {1, 2, 3}));
  g.node("Mul", {"x", "w"}, {"xw"}, "scale");
  test::set_graph(g.node("If", {"c"}, {"y"}, "gate"), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  test::set_ints(g.node("Transpose", {"y"}, {"yt"}), "perm", {1, 0});
  g.value_info("xw", ElemType::Float, {2, 3});
  g.output("yt", ElemType::Float, {3, -1});
  return g;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `bough info` prints the model exactly as tests/golden/nested_if_loop.txt says.
TEST(Printer, NestedIfLoopWithCapturesMatchesGolden) {
  const std::string path = test::save_model(test::make_model(nested_model()),
                                            test::scratch_dir("printer_golden"), "nested.onnx");
  std::string out;
  ASSERT_EQ(test::run_cli("info " + path, &out), 0) << out;
  const std::string want = read_text(test::source_dir() + "/tests/golden/nested_if_loop.txt");
  ASSERT_FALSE(want.empty());
  EXPECT_EQ(out, want);  // gtest shows a line diff
}

// The golden model is a real one: it runs. c = true, n = 2: yt = transpose(x*w + 2w).
TEST(Printer, GoldenModelRuns) {
  const std::string path = test::save_model(test::make_model(nested_model()),
                                            test::scratch_dir("printer_golden_run"), "nested.onnx");
  Session s(Model::load(path));
  auto out = s.run({{"x", test::f32({2, 3}, {1, 2, 3, 4, 5, 6})},
                    {"c", test::boolean({}, {true})},
                    {"n", test::i64({}, {2})}});
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{3, 6, 8, 14, 15, 24}));
}

}  // namespace
}  // namespace bough
