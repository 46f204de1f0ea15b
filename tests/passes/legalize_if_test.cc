// legalize-if through `bough optimize --repair`: Ifs with payload inputs bound to branch
// inputs, at two depths, one branch binding only a subset (by name), become spec Ifs that
// pass `bough check` and compute what the bindings meant.
#include <gtest/gtest.h>

#include "passes/pass_test_util.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

// A branch declaring `inputs` (float[2]) whose output `out` is `op` of `operands`.
GraphBuilder payload_branch(const std::string& name, const std::vector<std::string>& inputs,
                            const std::string& op, const std::vector<std::string>& operands,
                            const std::string& out) {
  GraphBuilder b(name);
  for (const std::string& in : inputs) b.input(in, ElemType::Float, {2});
  b.node(op, operands, {out});
  b.output(out, ElemType::Float, {2});
  return b;
}

// r = If(c; x, y) { (a, b): t = If(d; inner_payload) {inner_then} else {inner_else} }
//                 else { (y): -y }   — the else-branch binds only y, by name; s = a + b.
GraphBuilder payload_model(const std::vector<std::string>& inner_payload,
                           const GraphBuilder& inner_then, const GraphBuilder& inner_else) {
  GraphBuilder then_g("then_g");
  then_g.input("a", ElemType::Float, {2}).input("b", ElemType::Float, {2});
  then_g.node("Add", {"a", "b"}, {"s"});
  std::vector<std::string> inner_inputs = {"d"};
  inner_inputs.insert(inner_inputs.end(), inner_payload.begin(), inner_payload.end());
  then_g.node("If", inner_inputs, {"t"}, "inner");
  test::set_graph(then_g.graph_node_last(), "then_branch", inner_then);
  test::set_graph(then_g.graph_node_last(), "else_branch", inner_else);
  then_g.output("t", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2})
      .input("y", ElemType::Float, {2})
      .input("c", ElemType::Bool)
      .input("d", ElemType::Bool);
  g.node("If", {"c", "x", "y"}, {"r"}, "outer");
  test::set_graph(g.graph_node_last(), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch",
                  payload_branch("else_g", {"y"}, "Neg", {"y"}, "ny"));
  g.output("r", ElemType::Float, {2});
  return g;
}

// r = If(c; x, y) { (a, b): t = If(d; a + b) { (q): q * q } else { (q2): -q2 } }
//                 else { (y): -y }
// x = [1, 2], y = [3, 4]: c, d: (x + y)^2 = [16, 36]; c, !d: -(x + y) = [-4, -6];
// !c: -y = [-3, -4].
GraphBuilder payload_model() {
  return payload_model({"s"}, payload_branch("inner_then", {"q"}, "Mul", {"q", "q"}, "sq"),
                       payload_branch("inner_else", {"q2"}, "Neg", {"q2"}, "nq"));
}

TEST(LegalizeIf, RepairsPayloadInputsAtSeveralDepths) {
  const std::string dir = test::scratch_dir("legalize_if");
  const std::string in = test::save_model(test::make_model(payload_model()), dir, "bad.onnx");
  const std::string out = dir + "/fixed.onnx";
  std::string text;
  EXPECT_EQ(test::run_cli("check " + in, &text), 1) << text;
  EXPECT_NE(text.find("bough optimize --repair"), std::string::npos) << text;
  EXPECT_EQ(test::run_cli("optimize " + in + " " + out, &text), 1) << text;  // refused
  ASSERT_EQ(test::run_cli("optimize --repair " + in + " " + out, &text), 0) << text;
  EXPECT_NE(text.find("repaired: 2 Ifs"), std::string::npos) << text;
  ASSERT_EQ(test::run_cli("check " + out, &text), 0) << text;
  const test::NamedTensors xy = {{"x", f32({2}, {1, 2})}, {"y", f32({2}, {3, 4})}};
  auto run = [&](bool c, bool d) {
    test::NamedTensors inputs = xy;
    inputs.emplace_back("c", test::boolean({}, {c}));
    inputs.emplace_back("d", test::boolean({}, {d}));
    return floats_of(test::run_plain(out, inputs)[0]);
  };
  EXPECT_EQ(run(true, true), (std::vector<float>{16, 36}));
  EXPECT_EQ(run(true, false), (std::vector<float>{-4, -6}));
  EXPECT_EQ(run(false, true), (std::vector<float>{-3, -4}));
}

// The inner If's else-branch binds its payload by the name the file gives it, b — which
// the outer If's repair renames to y (the value b captures). Bindings are decided before any
// If is rewritten, so the inner else-branch still reads b's value, not the first payload.
// r = If(c; x, y) { (a, b): If(d; a + b, b) { (p, q): p * q } else { (b): -b } }
//                 else { (y): -y }
// x = [1, 2], y = [3, 4]: c, d: (x + y) * y = [12, 24]; c, !d: -y = [-3, -4].
TEST(LegalizeIf, NestedBindingByNameSurvivesTheOuterRename) {
  const GraphBuilder g =
      payload_model({"s", "b"}, payload_branch("inner_then", {"p", "q"}, "Mul", {"p", "q"}, "pq"),
                    payload_branch("inner_else", {"b"}, "Neg", {"b"}, "nb"));
  const std::string dir = test::scratch_dir("legalize_if_by_name");
  const std::string in = test::save_model(test::make_model(g), dir, "bad.onnx");
  const std::string out = dir + "/fixed.onnx";
  std::string text;
  ASSERT_EQ(test::run_cli("optimize --repair " + in + " " + out, &text), 0) << text;
  ASSERT_EQ(test::run_cli("check " + out, &text), 0) << text;
  auto run = [&](bool d) {
    return floats_of(test::run_plain(out, {{"x", f32({2}, {1, 2})},
                                           {"y", f32({2}, {3, 4})},
                                           {"c", test::boolean({}, {true})},
                                           {"d", test::boolean({}, {d})}})[0]);
  };
  EXPECT_EQ(run(true), (std::vector<float>{12, 24}));
  EXPECT_EQ(run(false), (std::vector<float>{-3, -4}));
}

// Golden: both Ifs keep only their condition; the branch inputs are captures named after
// the values bound (a -> x, b -> y, q and q2 -> s; the else-branch's y was already y).
TEST(LegalizeIf, Golden) {
  test::check_golden(payload_model(), "legalize-if", "repaired: 2 Ifs", "--repair");
}

}  // namespace
}  // namespace bough
