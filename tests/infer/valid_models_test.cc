// What the checker must accept: the corner cases of control flow that are valid ONNX (and
// that other tools get wrong), and every model of the conformance suite.
#include <filesystem>
#include <fstream>
#include <set>

#include "check_util.h"

namespace bough::test {
namespace {

TEST(CheckValid, BranchesOfDifferentShapesAndRanks) {
  // [2] and [3]: the If output may be undeclared, of unknown rank, [?] or [N].
  GraphBuilder t = branch("then", ElemType::Float, {2}), e = branch("else", ElemType::Float, {3});
  EXPECT_TRUE(is_valid(check_graph(if_model(t, e, ElemType::Float, {}, false))));
  EXPECT_TRUE(is_valid(check_graph(if_model(t, e, ElemType::Float, {-1}))));
  GraphBuilder g = if_model(t, e, ElemType::Float, {2});
  set_output_symbol(g, 0, 0, "N");
  EXPECT_TRUE(is_valid(check_graph(g)));
  // Ranks 1 and 2: only an unranked If output describes both.
  GraphBuilder r = branch("else", ElemType::Float, {2, 2});
  EXPECT_TRUE(is_valid(check_graph(if_model(t, r, ElemType::Float, {}, false))));
}

TEST(CheckValid, BranchesReturningAnOuterValueOrAnInitializerDirectly) {
  GraphBuilder t("then");
  t.output("x", ElemType::Float, {2});
  GraphBuilder e("else");
  e.initializer("k", f32({2}, {1, 2}));
  e.output("k", ElemType::Float, {2});
  EXPECT_TRUE(is_valid(check_graph(if_model(t, e, ElemType::Float, {2}))));
}

// A branch whose only node is an input-free Constant, its output the branch's output.
TEST(CheckValid, BranchReturningItsOwnConstant) {
  GraphBuilder t("then");
  set_tensor(t.node("Constant", {}, {"k"}, "k"), "value", f32({2}, {3, 4}));
  t.output("k", ElemType::Float, {2});
  GraphBuilder e = branch("else", ElemType::Float, {2});
  EXPECT_TRUE(is_valid(check_graph(if_model(t, e, ElemType::Float, {2}))));
}

TEST(CheckValid, CapturesThreeLevelsDeep) {
  GraphBuilder l3("l3");
  l3.node("Add", {"x", "x"}, {"s3"});
  l3.output("s3", ElemType::Float, {2});
  GraphBuilder l2("l2");
  auto& n2 = l2.node("If", {"c"}, {"s2"}, "level3");
  set_graph(n2, "then_branch", l3);
  set_graph(n2, "else_branch", branch("e3", ElemType::Float, {2}));
  l2.output("s2", ElemType::Float, {2});
  GraphBuilder l1("l1");
  auto& n1 = l1.node("If", {"c"}, {"s1"}, "level2");
  set_graph(n1, "then_branch", l2);
  set_graph(n1, "else_branch", branch("e2", ElemType::Float, {2}));
  l1.output("s1", ElemType::Float, {2});
  EXPECT_TRUE(is_valid(
      check_graph(if_model(l1, branch("e1", ElemType::Float, {2}), ElemType::Float, {2}))));
}

TEST(CheckValid, LoopWithoutConditionAndWithUndeclaredBodyShapes) {
  // Loop(M, "", x): the condition input is omitted; the body's iteration number and
  // condition have no declared shape (nor the condition a type), and it reads x by capture.
  GraphBuilder body("body");
  body.input("i", ElemType::Int64, {}, false);
  body.mutable_proto().add_input()->set_name("cond_in");
  body.input("v", ElemType::Float, {2});
  body.node("Add", {"v", "x"}, {"v_next"});
  body.node("Identity", {"cond_in"}, {"cond_out"});
  body.output_untyped("cond_out").output_untyped("v_next").output_untyped("v_next");
  GraphBuilder g("main");
  g.input("m", ElemType::Int64).input("x", ElemType::Float, {2});
  g.output_untyped("v_final").output_untyped("scanned");
  set_graph(g.node("Loop", {"m", "", "x"}, {"v_final", "scanned"}, "loop"), "body", body);
  EXPECT_TRUE(is_valid(check_graph(g)));
}

TEST(CheckValid, BodyInputsMayShadowOuterNames) {
  // Only node outputs may not reuse an outer name; a Scan body's input named x is fine.
  GraphBuilder body("body");
  body.input("x", ElemType::Float, {2});
  body.node("Neg", {"x"}, {"nx"});
  body.output_untyped("nx");
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {3, 2}).output_untyped("y");
  auto& n = g.node("Scan", {"x"}, {"y"}, "scan");
  set_graph(n, "body", body);
  set_int(n, "num_scan_inputs", 1);
  EXPECT_TRUE(is_valid(check_graph(g)));
}

TEST(CheckValid, BranchMayReuseANameTheOuterGraphDefinesLater) {
  // then_y is defined in the then branch and, after the If, in main: the branch cannot see
  // main's then_y, so neither shadows the other.
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  g.node("Neg", {"y"}, {"then_y"}, "later");
  g.output("then_y", ElemType::Float, {2});
  EXPECT_TRUE(is_valid(check_graph(g)));
}

TEST(CheckValid, OptionalSequencesFromIf16) {
  GraphBuilder t("then"), e("else");
  for (GraphBuilder* b : {&t, &e}) {
    set_int(b->node("SequenceEmpty", {}, {b->proto().name() + "_s"}), "dtype",
            static_cast<int64_t>(ElemType::Float));
    b->node("Optional", {b->proto().name() + "_s"}, {b->proto().name() + "_o"});
    b->output_untyped(b->proto().name() + "_o");
    auto* o = b->mutable_proto().mutable_output(0)->mutable_type()->mutable_optional_type();
    o->mutable_elem_type()
        ->mutable_sequence_type()
        ->mutable_elem_type()
        ->mutable_tensor_type()
        ->set_elem_type(static_cast<int>(ElemType::Float));
  }
  GraphBuilder g = if_model(t, e, ElemType::Float, {}, false);
  g.mutable_proto().mutable_output(0)->clear_type();
  EXPECT_TRUE(is_valid(check_graph(g, 16)));
}

// Every model of the conformance suite is valid: the ones bough passes check clean; the
// others only warn of the operators bough does not implement yet.
TEST(CheckValid, EveryConformanceModel) {
  std::string dir = conformance_dir();
  if (dir.empty()) GTEST_SKIP() << "no conformance suite";
  std::set<std::string> passing;
  std::ifstream manifest(source_dir() + "/tests/conformance/passing.txt");
  for (std::string line; std::getline(manifest, line);)
    if (!line.empty()) passing.insert(line);
  size_t checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    std::string model = (entry.path() / "model.onnx").string();
    if (!std::filesystem::exists(model)) continue;
    std::string name = entry.path().filename().string();
    check::Diagnostics d = infer::validate(*onnx::read_model_file(model)).diagnostics;
    ++checked;
    EXPECT_FALSE(d.has_errors()) << check::render_text(d, name);
    if (passing.count(name)) {
      EXPECT_EQ(d.warnings(), 0u) << check::render_text(d, name);
      continue;
    }
    for (const auto& x : d.all())
      EXPECT_NE(x.message.find("does not implement"), std::string::npos)
          << name << ": " << x.message;
  }
  EXPECT_GT(checked, 1000u);
}

}  // namespace
}  // namespace bough::test
