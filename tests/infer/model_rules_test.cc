// The checker's rules over the whole model: single static assignment across scopes, known
// operators and their arity, opset versions, and model-local functions.
#include "check_util.h"

namespace bough::test {
namespace {

const std::string kGate = "main/If \"gate\"";

TEST(CheckNames, SubgraphNodeOutputReusingAnOuterNameIsAnError) {
  // The then branch defines 'c' again, which main already defines (an input).
  GraphBuilder t("then");
  t.node("Neg", {"x"}, {"c"}, "again");
  t.output("c", ElemType::Float, {2});
  auto d = check_graph(if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate + "/then_branch/Neg \"again\"",
                        "output 'c' is already defined in the enclosing graph main; a node output "
                        "in a subgraph must not reuse an outer name"));
}

TEST(CheckNames, ReuseTwoLevelsDownNamesTheGraphThatDefinedIt) {
  // main/If "gate"/then_branch defines t_mid; the If inside it defines t_mid again.
  GraphBuilder inner_then("it");
  inner_then.node("Identity", {"x"}, {"t_mid"}, "dup");
  inner_then.output("t_mid", ElemType::Float, {2});
  GraphBuilder t("then");
  t.node("Identity", {"x"}, {"t_mid"}, "first");
  auto& n = t.node("If", {"c"}, {"t_y"}, "inner");
  set_graph(n, "then_branch", inner_then);
  set_graph(n, "else_branch", branch("ie", ElemType::Float, {2}));
  t.output("t_y", ElemType::Float, {2});
  auto d = check_graph(if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate + "/then_branch/If \"inner\"/then_branch/Identity \"dup\"",
                        "already defined in the enclosing graph main/If \"gate\"/then_branch"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckOperators, UnknownOperatorIsAnError) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Frobnicate", {"x"}, {"y"}, "f");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, "main/Frobnicate \"f\"",
                        "unknown operator Frobnicate: neither an operator bough implements nor a "
                        "function of the model"));
  // Valid ONNX that bough lacks, not a broken model: sessions say Unsupported.
  EXPECT_EQ(d.all().at(0).kind, ErrorKind::Unsupported);
}

TEST(CheckOperators, UnknownOperatorInABranchAndInADomain) {
  GraphBuilder t("then");
  t.node("Frobnicate", {"x"}, {"t_y"}).set_domain("com.example");
  t.output("t_y", ElemType::Float, {2});
  auto d = check_graph(if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(
      has_error(d, kGate + "/then_branch/Frobnicate", "unknown operator com.example.Frobnicate"));
}

TEST(CheckOperators, ArityOutsideTheOperatorsRangeIsAnError) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Add", {"x", "x", "x"}, {"y"}, "add");
  g.node("Relu", {"x"}, {"r1", "r2"}, "relu");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, "main/Add \"add\"", "Add has 3 inputs, expected 2"));
  EXPECT_TRUE(has_error(d, "main/Relu \"relu\"", "Relu has 2 outputs, expected 1"));
  EXPECT_EQ(d.errors(), 2u);
}

GraphBuilder relu_model() {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Relu", {"x"}, {"y"}, "relu");
  return g;
}

TEST(CheckOpsets, NewerOpsetThanBoughKnowsIsAnErrorUnlessAllowed) {
  auto m = make_model(relu_model(), 99);
  auto d = check_proto(m);
  EXPECT_TRUE(has_error(d, "", "imports opset ai.onnx 99, newer than bough supports (28)"));
  EXPECT_EQ(d.all().at(0).kind, ErrorKind::Unsupported);
  check::CheckOptions allow;
  allow.allow_newer_opset = true;
  d = check_proto(m, allow);
  EXPECT_TRUE(is_valid(d));
  ASSERT_EQ(d.warnings(), 1u);
  EXPECT_NE(d.all()[0].message.find("newer than bough supports"), std::string::npos);
  // The conformance suite's newest opset is known.
  EXPECT_TRUE(is_valid(check_proto(make_model(relu_model(), 28))));
}

TEST(CheckOpsets, NewerMlOpsetIsAnError) {
  auto m = make_model(relu_model(), 17);
  auto* op = m.add_opset_import();
  op->set_domain("ai.onnx.ml");
  op->set_version(7);
  EXPECT_TRUE(
      has_error(check_proto(m), "", "imports opset ai.onnx.ml 7, newer than bough supports (5)"));
}

// A model calling the local function local.Twice(x) = Add(x, x), whose body also holds
// `extra` when given.
onnxpb::ModelProto function_model(const std::string& extra_op) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Twice", {"x"}, {"y"}, "call").set_domain("local");
  auto m = make_model(g, 17);
  auto* local = m.add_opset_import();
  local->set_domain("local");
  local->set_version(1);
  auto* f = m.add_functions();
  f->set_name("Twice");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  auto* op = f->add_opset_import();
  op->set_domain("");
  op->set_version(17);
  auto* n = f->add_node();
  n->set_op_type("Add");
  n->add_input("a");
  n->add_input("a");
  n->add_output("b");
  if (!extra_op.empty()) {
    auto* e = f->add_node();
    e->set_op_type(extra_op);
    e->set_name("extra");
    e->add_input("a");
    e->add_output("unused");
  }
  return m;
}

TEST(CheckFunctions, LocalFunctionsAreKnownAndTheirBodiesChecked) {
  EXPECT_TRUE(is_valid(check_proto(function_model(""))));
  EXPECT_TRUE(has_error(check_proto(function_model("Frobnicate")),
                        "function Twice/Frobnicate \"extra\"", "unknown operator Frobnicate"));
}

TEST(CheckFunctions, FunctionOpsetNewerThanBoughKnowsIsAnError) {
  auto m = function_model("");
  m.mutable_functions(0)->mutable_opset_import(0)->set_version(40);
  EXPECT_TRUE(has_error(check_proto(m), "function Twice", "imports opset ai.onnx 40"));
}

}  // namespace
}  // namespace bough::test
