// The checker's If rules: one input, input-less branches with as many outputs as the node,
// branch types that agree, declared shapes compatible with the union of the branches, and
// the element types each schema row allows. Each model breaks one rule.
#include "check_util.h"

namespace bough::test {
namespace {

const std::string kGate = "main/If \"gate\"";
const std::string kThen = kGate + "/then_branch";
const std::string kElse = kGate + "/else_branch";

TEST(CheckIf, SecondInputIsAnError) {
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  g.mutable_proto().mutable_node(0)->add_input("x");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "If takes exactly one input (cond), found 2"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, BranchWithAFormalInputIsAnError) {
  GraphBuilder t = branch("then", ElemType::Float, {2});
  t.input("p", ElemType::Float, {2});
  auto d = check_graph(if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kThen, "an If branch takes no inputs, found 1 input ('p'"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, BranchYieldingMoreOutputsThanTheNodeIsAnError) {
  GraphBuilder t = branch("then", ElemType::Float, {2});
  t.output("x", ElemType::Float, {2});
  auto d = check_graph(if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate, "If has 1 output but then_branch yields 2"));
}

TEST(CheckIf, NodeWithMoreOutputsThanTheBranchesIsAnError) {
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  g.mutable_proto().mutable_node(0)->add_output("y2");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "If has 2 outputs but then_branch yields 1"));
  EXPECT_TRUE(has_error(d, kGate, "If has 2 outputs but else_branch yields 1"));
}

TEST(CheckIf, NoOutputsAtAllIsAnError) {
  GraphBuilder t("then"), e("else");
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).output("c2", ElemType::Bool);
  g.node("Identity", {"c"}, {"c2"});
  auto& n = g.node("If", {"c"}, {}, "gate");
  set_graph(n, "then_branch", t);
  set_graph(n, "else_branch", e);
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "If has 0 outputs, expected 1 or more"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, BranchesOfDifferentElementTypesAreAnError) {
  auto d = check_graph(if_model(branch("then", ElemType::Float, {2}),
                                branch("else", ElemType::Int64, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate,
                        "output 0: then_branch yields tensor(float)[2] but else_branch yields "
                        "tensor(int64)[2]; the branches must agree in kind and element type"));
}

TEST(CheckIf, BranchesOfDifferentKindsAreAnError) {
  GraphBuilder e = branch("else", ElemType::Float, {2});
  make_output_sequence(e, 0, ElemType::Float);
  auto d = check_graph(if_model(branch("then", ElemType::Float, {2}), e, ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate, "but else_branch yields seq(tensor(float)[*])"));
}

TEST(CheckIf, DeclaredShapeIncompatibleWithTheBranchUnionIsAnError) {
  // The branches yield [2] and [3]: the If output is [?]; [2] does not describe the else case.
  auto d = check_graph(if_model(branch("then", ElemType::Float, {2}),
                                branch("else", ElemType::Float, {3}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kGate,
                        "output 0 'y' is declared tensor(float)[2], incompatible with the union "
                        "of the branches, tensor(float)[?]"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, DeclaredRankDifferentFromTheBranchesIsAnError) {
  auto d = check_graph(if_model(branch("then", ElemType::Float, {2}),
                                branch("else", ElemType::Float, {2}), ElemType::Float, {2, 1}));
  EXPECT_TRUE(has_error(d, kGate, "'y' is declared tensor(float)[2,1], incompatible with"));
}

TEST(CheckIf, CondDeclaredAsFloatIsAnError) {
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  g.mutable_proto().mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(ElemType::Float));
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "cond 'c' has type tensor(float)[], expected tensor(bool)"));
}

// An If at `opset` whose branches and output are all tensor(elem)[2].
check::Diagnostics if_of_type(ElemType elem, int64_t opset) {
  return check_graph(if_model(branch("then", elem, {2}), branch("else", elem, {2}), elem, {2}),
                     opset);
}

TEST(CheckIf, Int4NeedsIf21) {
  auto d = if_of_type(ElemType::Int4, 19);
  EXPECT_TRUE(has_error(d, kThen,
                        "output 0 'then_y' has type tensor(int4)[2], which If-19 does not allow "
                        "(int4 needs If-21 or newer)"));
  EXPECT_TRUE(has_error(d, kElse, "int4 needs If-21"));
  EXPECT_TRUE(has_error(d, kGate, "output 0 'y' has type tensor(int4)[2], which If-19"));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::Int4, 21)));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::UInt4, 21)));
}

TEST(CheckIf, Float4e2m1NeedsIf23) {
  EXPECT_TRUE(has_error(if_of_type(ElemType::Float4E2M1, 21), kGate,
                        "which If-21 does not allow (float4e2m1 needs If-23 or newer)"));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::Float4E2M1, 23)));
}

TEST(CheckIf, Int2NeedsIf25) {
  EXPECT_TRUE(has_error(if_of_type(ElemType::Int2, 24), kGate,
                        "which If-24 does not allow (int2 needs If-25 or newer)"));
  EXPECT_TRUE(has_error(if_of_type(ElemType::UInt2, 24), kGate, "uint2 needs If-25"));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::Int2, 25)));
  // A newer opset with no If row of its own uses the newest row.
  EXPECT_TRUE(is_valid(if_of_type(ElemType::Int2, 28)));
}

TEST(CheckIf, Float8e8m0NeedsIf24) {
  EXPECT_TRUE(has_error(if_of_type(ElemType::Float8E8M0, 23), kGate,
                        "which If-23 does not allow (float8e8m0 needs If-24 or newer)"));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::Float8E8M0, 24)));
}

TEST(CheckIf, Float8NeedsIf19AndBfloat16If16) {
  EXPECT_TRUE(has_error(if_of_type(ElemType::Float8E4M3FN, 18), kGate,
                        "which If-16 does not allow (float8e4m3fn needs If-19 or newer)"));
  EXPECT_TRUE(has_error(if_of_type(ElemType::BFloat16, 15), kGate,
                        "which If-13 does not allow (bfloat16 needs If-16 or newer)"));
  EXPECT_TRUE(is_valid(if_of_type(ElemType::BFloat16, 16)));
}

TEST(CheckIf, SequencesNeedIf13AndOptionalsIf16) {
  GraphBuilder t = branch("then", ElemType::Float, {2}, true, "SequenceConstruct");
  GraphBuilder e = branch("else", ElemType::Float, {2}, true, "SequenceConstruct");
  make_output_sequence(t, 0, ElemType::Float);
  make_output_sequence(e, 0, ElemType::Float);
  GraphBuilder g = if_model(t, e, ElemType::Float, {2});
  make_output_sequence(g, 0, ElemType::Float);
  EXPECT_TRUE(
      has_error(check_graph(g, 12), kGate,
                "has type seq(tensor(float)[*]), which If-11 does not allow (sequences need "
                "If-13 or newer)"));
  EXPECT_TRUE(is_valid(check_graph(g, 13)));

  t = branch("then", ElemType::Float, {2}, true, "Optional");
  e = branch("else", ElemType::Float, {2}, true, "Optional");
  make_output_optional(t, 0, ElemType::Float);
  make_output_optional(e, 0, ElemType::Float);
  GraphBuilder o = if_model(t, e, ElemType::Float, {2});
  make_output_optional(o, 0, ElemType::Float);
  EXPECT_TRUE(has_error(check_graph(o, 15), kThen, "optionals need If-16 or newer"));
  EXPECT_TRUE(is_valid(check_graph(o, 16)));
}

TEST(CheckIf, ThenBranchGivenAsAnIntIsAnError) {
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  set_int(n, "then_branch", 1);
  set_graph(n, "else_branch", branch("else", ElemType::Float, {2}));
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "attribute then_branch is an int, expected a graph"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, MissingElseBranchIsAnError) {
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  set_graph(g.node("If", {"c"}, {"y"}, "gate"), "then_branch",
            branch("then", ElemType::Float, {2}));
  EXPECT_TRUE(has_error(check_graph(g), kGate, "missing attribute else_branch (a graph)"));
}

TEST(CheckIf, ErrorsInANestedIfNameTheWholePath) {
  // The inner If's else branch declares an input; the outer If is fine.
  GraphBuilder inner_else = branch("ie", ElemType::Float, {2});
  inner_else.input("p", ElemType::Float, {2});
  GraphBuilder outer_then("ot");
  auto& n = outer_then.node("If", {"c"}, {"ot_y"}, "inner");
  set_graph(n, "then_branch", branch("it", ElemType::Float, {2}));
  set_graph(n, "else_branch", inner_else);
  outer_then.output("ot_y", ElemType::Float, {2});
  auto d =
      check_graph(if_model(outer_then, branch("else", ElemType::Float, {2}), ElemType::Float, {2}));
  EXPECT_TRUE(has_error(d, kThen + "/If \"inner\"/else_branch", "an If branch takes no inputs"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckIf, EveryProblemIsReportedNotOnlyTheFirst) {
  GraphBuilder t = branch("then", ElemType::Float, {2});
  t.input("p", ElemType::Float, {2});
  GraphBuilder g = if_model(t, branch("else", ElemType::Int64, {2}), ElemType::Float, {2});
  g.mutable_proto().mutable_node(0)->add_input("x");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kGate, "exactly one input"));
  EXPECT_TRUE(has_error(d, kThen, "takes no inputs"));
  EXPECT_TRUE(has_error(d, kGate, "must agree in kind and element type"));
  EXPECT_EQ(d.errors(), 3u);
}

}  // namespace
}  // namespace bough::test
