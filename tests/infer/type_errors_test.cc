// Models whose types are wrong, each refused with a diagnostic at its node, and the valid
// corner cases that must pass. Expected types and messages are worked out by hand from the
// operators' specifications.
#include <gtest/gtest.h>

#include "bough/model.h"
#include "bough/session.h"
#include "infer/check_util.h"

namespace bough::test {
namespace {

// Checks `g` as `bough check` does, or as a session does (shape conflicts are warnings).
check::Diagnostics check_as_run(const GraphBuilder& g, int64_t opset = 17) {
  std::string path = save_model(make_model(g, opset), scratch_dir("infer"), "m.onnx");
  infer::ValidateOptions options;
  options.infer.shape_conflicts_are_errors = false;
  return infer::validate(*onnx::read_model_file(path), options).diagnostics;
}

bool has_warning(const check::Diagnostics& d, const std::string& place, const std::string& text) {
  for (const auto& x : d.all())
    if (x.severity == check::Severity::Warning && x.place == place &&
        x.message.find(text) != std::string::npos)
      return true;
  return false;
}

GraphBuilder binary(const std::string& op, ElemType a, ElemType b, Dims64 da = {2},
                    Dims64 db = {2}) {
  GraphBuilder g("main");
  g.input("a", a, std::move(da)).input("b", b, std::move(db));
  g.node(op, {"a", "b"}, {"c"}, "op_1");
  g.output_untyped("c");
  return g;
}

const char* kOp = "main/Add \"op_1\"";

TEST(TypeErrors, AddOfFloatAndInt64) {
  EXPECT_TRUE(has_error(check_graph(binary("Add", ElemType::Float, ElemType::Int64)), kOp,
                        "input 1 (B) has type tensor(int64), but input 0 (A) has "
                        "tensor(float); both are T"));
}

TEST(TypeErrors, StringsIntoAdd) {
  EXPECT_TRUE(has_error(check_graph(binary("Add", ElemType::String, ElemType::String)), kOp,
                        "input 0 (A) has type tensor(string); T allows"));
}

TEST(TypeErrors, ShapesThatDoNotBroadcast) {
  auto d = check_graph(binary("Add", ElemType::Float, ElemType::Float, {2, 3}, {4}));
  EXPECT_TRUE(has_error(d, kOp, "shapes cannot be broadcast: dims 3 and 4"));
}

TEST(TypeErrors, GatherWithFloatIndices) {
  GraphBuilder g("main");
  g.input("d", ElemType::Float, {3}).input("i", ElemType::Float, {});
  g.node("Gather", {"d", "i"}, {"y"}, "pick");
  g.output_untyped("y");
  EXPECT_TRUE(has_error(check_graph(g), "main/Gather \"pick\"",
                        "input 1 (indices) has type tensor(float); Tind allows "
                        "tensor(int32|int64)"));
}

// The Optional operators allow the types of their IR: int4 and int2 only from version 28
// (before it they stop at bfloat16), so each model is refused at opset 18 and valid at 28.
TEST(TypeErrors, OptionalOperatorsTakeInt2FromVersion28) {
  for (const char* op : {"Optional", "OptionalHasElement", "OptionalGetElement"}) {
    GraphBuilder g("main");
    g.input("x", ElemType::Int2, {2});
    g.node(op, {"x"}, {"y"}, "op_1");
    g.output_untyped("y");
    EXPECT_TRUE(has_error(check_graph(g, 18), "main/" + std::string(op) + " \"op_1\"",
                          "input 0 (input) has type tensor(int2)"))
        << op;
    EXPECT_TRUE(is_valid(check_graph(g, 28))) << op;
  }
  // An optional of an optional stays refused at 28.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Optional", {"x"}, {"o"}, "inner");
  g.node("Optional", {"o"}, {"oo"}, "outer");
  g.output_untyped("oo");
  EXPECT_TRUE(has_error(check_graph(g, 28), "main/Optional \"outer\"",
                        "input 0 (input) has type optional(tensor(float)"));
}

TEST(TypeErrors, SumOfMixedTypes) {
  GraphBuilder g("main");
  g.input("a", ElemType::Float, {2}).input("b", ElemType::Float, {2});
  g.input("c", ElemType::Double, {2});
  g.node("Sum", {"a", "b", "c"}, {"s"}, "total");
  g.output_untyped("s");
  EXPECT_TRUE(has_error(check_graph(g), "main/Sum \"total\"",
                        "input 2 (data_0) has type tensor(double), but input 0 (data_0) has "
                        "tensor(float)"));
}

TEST(TypeErrors, AttributesUnknownOfTheWrongKindOrMissing) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3});
  set_float(g.node("Relu", {"x"}, {"r"}, "relu"), "alpha", 0.5f);
  set_int(g.node("Transpose", {"r"}, {"t"}, "swap"), "perm", 1);
  g.node("Cast", {"t"}, {"y"}, "convert");
  g.output_untyped("y");
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, "main/Relu \"relu\"", "unknown attribute 'alpha'"));
  EXPECT_TRUE(has_error(d, "main/Transpose \"swap\"", "attribute 'perm' is an int, expected ints"));
  EXPECT_TRUE(has_error(d, "main/Cast \"convert\"", "missing required attribute 'to'"));
  EXPECT_EQ(d.errors(), 3u);  // every problem, not just the first
}

TEST(TypeErrors, DeclaredElementTypeContradictsTheNode) {
  GraphBuilder g = binary("Add", ElemType::Float, ElemType::Float);
  g.value_info("c", ElemType::Int64, {2});
  EXPECT_TRUE(has_error(check_graph(g), kOp,
                        "output 0 ('c') is declared tensor(int64)[2], but the node yields "
                        "tensor(float)[2]"));
  // A type error stays an error when the model is about to run.
  EXPECT_TRUE(has_error(check_as_run(g), kOp, "is declared tensor(int64)[2]"));
}

TEST(TypeErrors, DeclaredShapeContradictsTheNodeIsAWarningForARun) {
  GraphBuilder g = binary("Add", ElemType::Float, ElemType::Float);
  g.value_info("c", ElemType::Float, {3});
  EXPECT_TRUE(has_error(check_graph(g), kOp,
                        "output 0 ('c') is declared tensor(float)[3], but the node yields "
                        "tensor(float)[2]"));
  auto run = check_as_run(g);
  EXPECT_FALSE(run.has_errors());
  EXPECT_TRUE(has_warning(run, kOp, "it runs by the shapes it meets"));
  // And it runs, by the shapes it meets: [1,2] + [10,20].
  std::string path = save_model(make_model(g), scratch_dir("infer"), "conflict.onnx");
  Session session(Model::load(path));
  auto out = session.run({{"a", f32({2}, {1, 2})}, {"b", f32({2}, {10, 20})}});
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{11, 22}));
}

// An If whose branches return constants of the given types and shapes, outputs undeclared.
GraphBuilder if_of_constants(const Tensor& then_value, const Tensor& else_value) {
  GraphBuilder t("then");
  t.initializer("tk", then_value);
  t.node("Identity", {"tk"}, {"ty"});
  t.output_untyped("ty");
  GraphBuilder e("else");
  e.initializer("ek", else_value);
  e.node("Identity", {"ek"}, {"ey"});
  e.output_untyped("ey");
  GraphBuilder g("main");
  g.input("c", ElemType::Bool);
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(n, "then_branch", t);
  set_graph(n, "else_branch", e);
  g.output_untyped("y");
  return g;
}

TEST(TypeErrors, BranchesOfDifferentElementTypes) {
  GraphBuilder g = if_of_constants(f32({2}, {1, 2}), i64({2}, {1, 2}));
  EXPECT_TRUE(has_error(check_graph(g), "main/If \"gate\"",
                        "output 0: then_branch yields tensor(float)[2], else_branch "
                        "tensor(int64)[2]"));
}

TEST(TypeErrors, DeclaredIfShapeThatDescribesOnlyOneBranch) {
  // [2] fits the union [?] of [2] and [3], but not what the else-branch yields.
  GraphBuilder g = if_of_constants(f32({2}, {1, 2}), f32({3}, {1, 2, 3}));
  g.mutable_proto().clear_output();
  g.output("y", ElemType::Float, {2});
  EXPECT_TRUE(has_error(check_graph(g), "main/If \"gate\"",
                        "output 0 ('y') is declared tensor(float)[2], but else_branch yields "
                        "tensor(float)[3]"));
  EXPECT_FALSE(check_as_run(g).has_errors());
}

// An If whose branches return the outer input x of `elem` directly, nothing declared.
GraphBuilder if_passing_through(ElemType elem) {
  GraphBuilder t("then"), e("else");
  t.output_untyped("x");
  e.output_untyped("x");
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).input("x", elem, {2});
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(n, "then_branch", t);
  set_graph(n, "else_branch", e);
  g.output_untyped("y");
  return g;
}

TEST(TypeErrors, IfOutputTypesAgainstTheIfVersion) {
  // A branch returning the outer x declares its type through the capture.
  const char* then_branch = "main/If \"gate\"/then_branch";
  EXPECT_TRUE(has_error(check_graph(if_passing_through(ElemType::Int4), 19), then_branch,
                        "which If-19 does not allow (int4 needs If-21 or newer)"));
  EXPECT_TRUE(has_error(check_graph(if_passing_through(ElemType::Float4E2M1), 21), then_branch,
                        "float4e2m1 needs If-23 or newer"));
  EXPECT_TRUE(has_error(check_graph(if_passing_through(ElemType::Int2), 24), then_branch,
                        "int2 needs If-25 or newer"));
  EXPECT_TRUE(is_valid(check_graph(if_passing_through(ElemType::Int2), 25)));
}

TEST(TypeErrors, ConditionThatIsNotBool) {
  GraphBuilder g = if_of_constants(f32({2}, {1, 2}), f32({2}, {3, 4}));
  g.mutable_proto().clear_input();
  g.input("c", ElemType::Int64);
  auto d = check_graph(g);
  EXPECT_TRUE(d.has_errors());
  bool named = false;
  for (const auto& x : d.all()) named = named || x.message.find("bool") != std::string::npos;
  EXPECT_TRUE(named) << check::render_text(d, "m.onnx");
}

// main: Loop "l"(n, "", v0) whose body passes the carried float through `op`.
GraphBuilder loop_carrying_through(const std::string& op) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cond", ElemType::Bool).input("v", ElemType::Float, {2});
  body.node("Identity", {"cond"}, {"cond_out"});
  body.node(op, {"v"}, {"v_out"});
  body.output_untyped("cond_out");
  body.output_untyped("v_out");
  GraphBuilder g("main");
  g.input("n", ElemType::Int64).input("v0", ElemType::Float, {2});
  set_graph(g.node("Loop", {"n", "", "v0"}, {"v_final"}, "l"), "body", body);
  g.output_untyped("v_final");
  return g;
}

TEST(TypeErrors, LoopCarriedValueChangingType) {
  // Shape turns the float into int64 dims.
  EXPECT_TRUE(has_error(check_graph(loop_carrying_through("Shape")), "main/Loop \"l\"",
                        "carried value 0 starts as tensor(float)[2] but the body returns "
                        "tensor(int64)"));
  EXPECT_TRUE(is_valid(check_graph(loop_carrying_through("Relu"))));
}

TEST(TypeErrors, ErrorDeepInsideIsReportedAtItsPlace) {
  // main/Loop "l"/body/If "g"/then_branch/Add "bad": float + int64, three levels down.
  GraphBuilder then_b("then_branch");
  then_b.node("Add", {"x", "k"}, {"s"}, "bad");
  then_b.output_untyped("s");
  GraphBuilder else_b("else_branch");
  else_b.node("Identity", {"x"}, {"s2"});
  else_b.output_untyped("s2");
  GraphBuilder body("body");
  body.input("i", ElemType::Int64).input("cond", ElemType::Bool);
  body.node("Identity", {"cond"}, {"cond_out"});
  auto& gate = body.node("If", {"cond"}, {"y"}, "g");
  set_graph(gate, "then_branch", then_b);
  set_graph(gate, "else_branch", else_b);
  body.output_untyped("cond_out");
  body.output_untyped("y");
  GraphBuilder g("main");
  g.input("n", ElemType::Int64).input("x", ElemType::Float, {2}).input("k", ElemType::Int64, {2});
  set_graph(g.node("Loop", {"n", ""}, {"ys"}, "l"), "body", body);
  g.output_untyped("ys");
  EXPECT_TRUE(has_error(check_graph(g), "main/Loop \"l\"/body/If \"g\"/then_branch/Add \"bad\"",
                        "input 1 (B) has type tensor(int64), but input 0 (A) has tensor(float)"));
}

TEST(TypeErrors, SessionRefusesATypeErrorAtLoadAndTheCliExitsOne) {
  std::string path = save_model(make_model(binary("Add", ElemType::Float, ElemType::Int64)),
                                scratch_dir("infer"), "bad.onnx");
  try {
    Session session(Model::load(path));
    ADD_FAILURE() << "the session was created";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    EXPECT_NE(std::string(e.what()).find("main/Add \"op_1\": input 1 (B)"), std::string::npos)
        << e.what();
  }
  std::string out;
  EXPECT_EQ(run_cli("run " + path, &out), 1) << out;
  EXPECT_EQ(run_cli("check " + path, &out), 1) << out;
}

TEST(TypeValid, UndeclaredShapesEverywhere) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {}, false);
  g.node("Relu", {"x"}, {"r"});
  g.node("Add", {"r", "x"}, {"y"});
  g.output_untyped("y");
  EXPECT_TRUE(is_valid(check_graph(g)));
}

// An If whose else-branch reshapes x [1,2] (2 elements) into [1,1]: it can only fail, but
// only if taken, as in exported models whose branches serve other input shapes. The model
// is valid with a warning there, runs down the then-branch, and fails clearly down the other;
// the same Reshape where it always runs is an error.
TEST(TypeValid, BranchThatFailsOnlyIfTakenIsAWarning) {
  GraphBuilder then_b("then_branch");
  then_b.node("Identity", {"x"}, {"t"});
  then_b.output_untyped("t");
  GraphBuilder else_b("else_branch");
  else_b.initializer("s", i64({2}, {1, 1}));
  else_b.node("Reshape", {"x", "s"}, {"e"}, "r");
  else_b.output_untyped("e");
  GraphBuilder g("main");
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {1, 2});
  auto& gate = g.node("If", {"c"}, {"y"}, "gate");
  set_graph(gate, "then_branch", then_b);
  set_graph(gate, "else_branch", else_b);
  g.output_untyped("y");
  auto d = check_graph(g);
  EXPECT_TRUE(is_valid(d));
  EXPECT_TRUE(has_warning(d, "main/If \"gate\"/else_branch/Reshape \"r\"",
                          "cannot reshape 2 elements into 1; it fails if this subgraph runs"));

  Session session(Model::load(save_model(make_model(g), scratch_dir("infer"), "dead.onnx")));
  auto out = session.run({{"c", boolean({}, {true})}, {"x", f32({1, 2}, {3, 4})}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{3, 4}));
  try {
    session.run({{"c", boolean({}, {false})}, {"x", f32({1, 2}, {3, 4})}});
    ADD_FAILURE() << "the else-branch ran";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput) << e.what();
  }

  GraphBuilder flat("main");
  flat.input("x", ElemType::Float, {1, 2}).initializer("s", i64({2}, {1, 1}));
  flat.node("Reshape", {"x", "s"}, {"y"}, "r");
  flat.output_untyped("y");
  EXPECT_TRUE(
      has_error(check_graph(flat), "main/Reshape \"r\"", "cannot reshape 2 elements into 1"));
}

TEST(TypeValid, ConstantConditionTakesTheTakenBranchType) {
  GraphBuilder g = if_of_constants(f32({2}, {1, 2}), f32({3}, {1, 2, 3}));
  g.mutable_proto().clear_input();
  g.initializer("c", boolean({}, {false}));
  std::string path = save_model(make_model(g), scratch_dir("infer"), "constant_if.onnx");
  auto model = onnx::read_model_file(path);
  infer::Validation v = infer::validate(*model);
  EXPECT_FALSE(v.diagnostics.has_errors());
  EXPECT_EQ(ir::to_string(v.types.type_of(model->graph->outputs[0])), "tensor(float)[3]");
}

TEST(TypeValid, LoopWithoutConditionAndUndeclaredBodyCounters) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64, {}, false).input("cond", ElemType::Bool, {}, false);
  body.input("v", ElemType::Float, {}, false);
  body.node("Identity", {"cond"}, {"cond_out"});
  body.node("Add", {"v", "v"}, {"v_out"});
  body.output_untyped("cond_out");
  body.output_untyped("v_out");
  GraphBuilder g("main");
  g.input("n", ElemType::Int64).input("v0", ElemType::Float, {2});
  set_graph(g.node("Loop", {"n", "", "v0"}, {"v_final"}, "l"), "body", body);
  g.output_untyped("v_final");
  std::string path = save_model(make_model(g), scratch_dir("infer"), "loop.onnx");
  auto model = onnx::read_model_file(path);
  infer::Validation v = infer::validate(*model);
  EXPECT_FALSE(v.diagnostics.has_errors()) << check::render_text(v.diagnostics, path);
  // The carried value keeps its element type; its shape may change, so only [2] | body's.
  EXPECT_EQ(v.types.type_of(model->graph->outputs[0]).elem, ElemType::Float);
}

}  // namespace
}  // namespace bough::test

namespace bough::test {
namespace {

TEST(TypeValid, ShapeComputationsReachReshape) {
  // x [2,3,4]: Shape -> Gather(0) -> Unsqueeze -> Concat with [-1] -> Reshape gives [2, 12],
  // though no value in between is a constant of the model.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2, 3, 4});
  g.initializer("zero", i64({}, {0}));
  g.initializer("axes", i64({1}, {0}));
  g.initializer("rest", i64({1}, {-1}));
  g.node("Shape", {"x"}, {"dims"});
  g.node("Gather", {"dims", "zero"}, {"batch"});
  g.node("Unsqueeze", {"batch", "axes"}, {"batch1"});
  set_int(g.node("Concat", {"batch1", "rest"}, {"target"}), "axis", 0);
  g.node("Reshape", {"x", "target"}, {"y"});
  g.output_untyped("y");
  std::string path = save_model(make_model(g), scratch_dir("infer"), "reshape.onnx");
  auto model = onnx::read_model_file(path);
  infer::Validation v = infer::validate(*model);
  EXPECT_FALSE(v.diagnostics.has_errors()) << check::render_text(v.diagnostics, path);
  EXPECT_EQ(ir::to_string(v.types.type_of(model->graph->outputs[0])), "tensor(float)[2,12]");
}

}  // namespace
}  // namespace bough::test

namespace bough::test {
namespace {

TEST(TypeValid, AnInputWithADefaultIsNotAConstant) {
  // `target` defaults to [2,3] but the caller may pass [3,2]: Reshape's result stays open.
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {6}).input("target", ElemType::Int64, {2});
  g.initializer("target", i64({2}, {2, 3}));
  g.node("Reshape", {"x", "target"}, {"y"});
  g.output_untyped("y");
  std::string path = save_model(make_model(g), scratch_dir("infer"), "default.onnx");
  auto model = onnx::read_model_file(path);
  infer::Validation v = infer::validate(*model);
  EXPECT_FALSE(v.diagnostics.has_errors()) << check::render_text(v.diagnostics, path);
  EXPECT_EQ(ir::to_string(v.types.type_of(model->graph->outputs[0])), "tensor(float)[?,?]");
}

}  // namespace
}  // namespace bough::test
