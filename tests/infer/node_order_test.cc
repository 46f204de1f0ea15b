// Nodes out of topological order: ONNX requires a graph's nodes sorted so that each comes
// after the makers of what it reads (its subgraphs' reads of outer values included). The
// reader sorts them all the same; `bough check` reports the first node out of order as an
// error, and a Session runs the model after a warning.
#include "bough/session.h"
#include "check_util.h"

namespace bough::test {
namespace {

// y = -relu(x), with Neg "second" listed before Relu "first", which makes its input h.
GraphBuilder neg_before_relu() {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Neg", {"h"}, {"y"}, "second");
  g.node("Relu", {"x"}, {"h"}, "first");
  return g;
}

TEST(NodeOrder, ANodeBeforeTheMakerOfItsInputIsAnErrorForCheck) {
  const check::Diagnostics d = check_graph(neg_before_relu());
  EXPECT_TRUE(has_error(d, "main/Neg \"second\"",
                        "comes before Relu \"first\", which makes 'h' that it reads: ONNX "
                        "requires the nodes of a graph in topological order"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(NodeOrder, TheSameGraphInOrderIsValid) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Relu", {"x"}, {"h"}, "first");
  g.node("Neg", {"h"}, {"y"}, "second");
  EXPECT_TRUE(is_valid(check_graph(g)));
}

TEST(NodeOrder, ASessionRunsItSortedAfterAWarning) {
  check::CheckOptions lenient;
  lenient.unsorted_nodes_are_errors = false;
  const check::Diagnostics d = check_proto(make_model(neg_before_relu()), lenient);
  EXPECT_FALSE(d.has_errors());
  ASSERT_EQ(d.warnings(), 1u);
  EXPECT_NE(d.all()[0].message.find("bough runs them sorted"), std::string::npos);

  Session s(
      Model::load(save_model(make_model(neg_before_relu()), scratch_dir("node_order"), "m.onnx")));
  NamedValues out = s.run({{"x", f32({2}, {-1, 2})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, -2}));  // -relu(x)
}

// y = If "gate"(c) with `then_g` (output t [2]) and an else-branch returning x.
GraphBuilder gate_over(const GraphBuilder& then_g) {
  GraphBuilder else_g("else"), g;
  else_g.output("e", ElemType::Float, {2});
  else_g.node("Identity", {"x"}, {"e"});
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2});
  g.output("y", ElemType::Float, {2});
  auto& gate = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(gate, "then_branch", then_g);
  set_graph(gate, "else_branch", else_g);
  return g;
}

TEST(NodeOrder, AnIfBeforeTheMakerOfAValueItsBranchReads) {
  // The then-branch reads v by name; Add "make" makes v but comes after the If in the file.
  GraphBuilder then_g("then");
  then_g.output("t", ElemType::Float, {2});
  then_g.node("Neg", {"v"}, {"t"});
  GraphBuilder g = gate_over(then_g);
  g.node("Add", {"x", "x"}, {"v"}, "make");
  EXPECT_TRUE(has_error(check_graph(g), "main/If \"gate\"",
                        "comes before Add \"make\", which makes 'v' that it reads"));
}

TEST(NodeOrder, OutOfOrderInsideABranchIsReportedThere) {
  GraphBuilder then_g("then");
  then_g.output("t", ElemType::Float, {2});
  then_g.node("Neg", {"u"}, {"t"}, "late");
  then_g.node("Abs", {"x"}, {"u"}, "early");
  const check::Diagnostics d = check_graph(gate_over(then_g));
  EXPECT_TRUE(has_error(d, "main/If \"gate\"/then_branch/Neg \"late\"",
                        "comes before Abs \"early\", which makes 'u'"));
  EXPECT_EQ(d.errors(), 1u);
}

}  // namespace
}  // namespace bough::test
