// Values of different ranks meeting in one place (an If's branches, a sequence's elements):
// the rank is unknown and varies, and a declaration does not narrow it. Before, an If whose
// branches yield [2] and a scalar, declared a scalar, was inferred a scalar, and the
// elements of test_loop16_seq_none's sequence (a scalar and a [k] slice) came out as scalars.
#include <gtest/gtest.h>

#include <filesystem>

#include "infer/check_util.h"
#include "ir/graph.h"
#include "ops/onnx/sequence_infer.h"

namespace bough::test {
namespace {

using ir::Dim;
using ir::Shape;

TEST(VaryingRank, UnionOfShapes) {
  const Shape two = Shape::of({Dim::known(2)}), three = Shape::of({Dim::known(3)});
  const Shape scalar = Shape::of({}), unknown = Shape::unknown_rank();
  EXPECT_EQ(ir::union_shape(two, three), Shape::of({Dim::unknown()}));
  EXPECT_EQ(ir::union_shape(two, two), two);
  EXPECT_EQ(ir::union_shape(two, scalar), Shape::of_varying_rank());
  // Unknown on one side is not known to differ: a declaration may still say the rank.
  EXPECT_EQ(ir::union_shape(two, unknown), unknown);
  EXPECT_EQ(ir::union_shape(Shape::of_varying_rank(), two), Shape::of_varying_rank());
  EXPECT_EQ(ir::union_shape(unknown, Shape::of_varying_rank()), Shape::of_varying_rank());
  // The sequence ops' cover is the same union.
  EXPECT_EQ(ops::sequence_infer::cover(ir::Type::tensor(ElemType::Float, two),
                                       ir::Type::tensor(ElemType::Float, scalar))
                .shape,
            Shape::of_varying_rank());
}

// The inferred type of the graph output `name` of `g`, declarations taken into account, as
// a run infers it (a declaration a branch contradicts is a warning there: `check` reports it
// as an error and gives the node no types).
ir::Type inferred_output(const GraphBuilder& g, const std::string& name) {
  const std::string path = save_model(make_model(g), scratch_dir("varying_rank"), "m.onnx");
  std::unique_ptr<ir::Model> model = onnx::read_model_file(path);
  infer::ValidateOptions lenient;
  lenient.check.shape_conflicts_are_errors = false;
  lenient.infer.shape_conflicts_are_errors = false;
  infer::Validation v = infer::validate(*model, lenient);
  for (const ir::Edge* e : model->graph->outputs)
    if (e->name == name) return v.types.type_of(e);
  ADD_FAILURE() << "no output " << name;
  return {};
}

TEST(VaryingRank, DeclaredScalarDoesNotNarrowBranchesOfTwoRanks) {
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {}), ElemType::Float, {});
  const ir::Type t = inferred_output(g, "y");
  EXPECT_EQ(t.elem, ElemType::Float);
  EXPECT_FALSE(t.shape.rank_known) << ir::to_string(t);
  EXPECT_TRUE(t.shape.rank_varies);
}

TEST(VaryingRank, DeclarationStillNarrowsWhatIsMerelyUnknown) {
  // Both branches pass on x, whose rank is not declared: nothing is known to differ, so
  // the If's declared [2] is taken.
  GraphBuilder then_b("then"), else_b("else"), g("main");
  then_b.output("t", ElemType::Float, {}, false).node("Identity", {"x"}, {"t"});
  else_b.output("e", ElemType::Float, {}, false).node("Identity", {"x"}, {"e"});
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {}, false);
  g.output("y", ElemType::Float, {2});
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(n, "then_branch", then_b);
  set_graph(n, "else_branch", else_b);
  const ir::Type t = inferred_output(g, "y");
  EXPECT_EQ(t.shape, Shape::of({Dim::known(2)})) << ir::to_string(t);
}

// The official test: the body inserts a [k] slice into a sequence whose declared elements
// are scalars, and declares the result a sequence of scalars too.
TEST(VaryingRank, SequenceOfScalarsAndSlicesIsNotTakenForScalars) {
  const std::string path = conformance_dir() + "/test_loop16_seq_none/model.onnx";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no conformance suite";
  std::unique_ptr<ir::Model> model = onnx::read_model_file(path);
  infer::Validation v = infer::validate(*model);
  const ir::Graph& body = *model->graph->nodes.at(0)->attr("body")->g;
  const ir::Edge* seq_out = body.outputs.at(1);
  ASSERT_EQ(seq_out->name, "seq_out");
  const ir::Type& t = v.types.type_of(seq_out);
  ASSERT_TRUE(t.inner) << ir::to_string(t);
  EXPECT_FALSE(t.inner->shape.rank_known) << ir::to_string(t);
}

}  // namespace
}  // namespace bough::test
