// The checker's former holes, each a model the spec or the IR forbids that `bough check`
// used to accept: a one-node cycle, no opset import or ai.onnx at 0, If-1's same-shape rule,
// a subgraph name both input and initializer, Scan's slices and lengths (also Scan-8), an If
// condition of more than one element, and every problem listed after an unknown operator.
#include <gtest/gtest.h>

#include <string>

#include "error_text.h"
#include "infer/check_util.h"

namespace bough {
namespace {

using test::branch;
using test::check_graph;
using test::check_proto;
using test::Dims64;
using test::f32;
using test::GraphBuilder;
using test::has_error;
using test::is_valid;
using test::make_model;

TEST(MeaningHoles, ANodeReadingItsOwnOutputIsACycle) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Add", {"x", "y"}, {"y"}, "self");
  g.output("y", ElemType::Float, {2});
  try {
    check_graph(g);
    FAIL() << "a one-node cycle was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

TEST(MeaningHoles, ANodeReadingItsOwnOutputInABranchIsACycle) {
  GraphBuilder then_g("then_g");
  then_g.node("Add", {"x", "t"}, {"t"}, "self");
  then_g.output("t", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("c", ElemType::Bool);
  auto& n = g.node("If", {"c"}, {"y"});
  test::set_graph(n, "then_branch", then_g);
  test::set_graph(n, "else_branch", branch("else_g", ElemType::Float, {2}));
  g.output("y", ElemType::Float, {2});
  try {
    check_graph(g);
    FAIL() << "a one-node cycle in a branch was read";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cycle"), std::string::npos) << e.what();
  }
}

GraphBuilder neg_model() {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Neg", {"x"}, {"y"});
  g.output("y", ElemType::Float, {2});
  return g;
}

TEST(MeaningHoles, AModelMustImportAnOpset) {
  onnxpb::ModelProto m = make_model(neg_model());
  m.clear_opset_import();
  EXPECT_TRUE(has_error(check_proto(m), "", "imports no opset"));
}

TEST(MeaningHoles, AiOnnxAtVersionZeroIsRefused) {
  onnxpb::ModelProto m = make_model(neg_model());
  m.mutable_opset_import(0)->set_version(0);
  EXPECT_TRUE(has_error(check_proto(m), "", "ai.onnx at version 0"));
}

// If-1 (opset <= 10) asks for branches of the same shape; If-11 takes their union.
TEST(MeaningHoles, IfOneRequiresBranchesOfTheSameShape) {
  auto model = [] {
    GraphBuilder g("main");
    g.input("c", ElemType::Bool);
    auto& n = g.node("If", {"c"}, {"y"}, "gate");
    test::set_graph(n, "then_branch", branch("then_g", ElemType::Float, {2}));
    test::set_graph(n, "else_branch", branch("else_g", ElemType::Float, {3}));
    g.output_untyped("y");
    return g;
  };
  EXPECT_TRUE(has_error(check_graph(model(), 10), "main/If \"gate\"",
                        "If-1 (opset 10 and older) requires the same shape"));
  EXPECT_TRUE(is_valid(check_graph(model(), 11)));
}

TEST(MeaningHoles, ASubgraphNameCannotBeInputAndInitializer) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64, {}).input("cond", ElemType::Bool, {});
  body.input("v", ElemType::Float, {2});
  body.initializer("v", f32({2}, {1, 2}));
  body.node("Identity", {"cond"}, {"cond_out"});
  body.node("Neg", {"v"}, {"v_out"});
  body.output("cond_out", ElemType::Bool, {}).output("v_out", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("m", test::i64({}, {2}));
  g.initializer("c0", test::boolean({}, {true}));
  test::set_graph(g.node("Loop", {"m", "c0", "x"}, {"y"}, "loop"), "body", body);
  g.output("y", ElemType::Float, {2});
  EXPECT_TRUE(has_error(check_graph(g), "main/Loop \"loop\"/body",
                        "'v' is both an input and an initializer of this subgraph"));
}

// Scan-9 on: x [3, 2] scanned along axis 0 gives slices [2]; a body input declared [5] is
// contradicted; two scan inputs of lengths 3 and 4 cannot be scanned together.
GraphBuilder scan_model(int64_t declared, int64_t second_length) {
  GraphBuilder body("body");
  body.input("a", ElemType::Float, {declared}).input("b", ElemType::Float, {2});
  body.node("Add", {"a", "b"}, {"s"});
  body.output("s", ElemType::Float, {});
  body.mutable_proto().mutable_output(0)->mutable_type()->mutable_tensor_type()->clear_shape();
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {3, 2}).input("z", ElemType::Float, {second_length, 2});
  auto& n = g.node("Scan", {"x", "z"}, {"y"}, "scan");
  test::set_int(n, "num_scan_inputs", 2);
  test::set_graph(n, "body", body);
  g.output_untyped("y");
  return g;
}

TEST(MeaningHoles, ScanBodyInputContradictingItsSlice) {
  EXPECT_TRUE(is_valid(check_graph(scan_model(2, 3))));
  EXPECT_TRUE(has_error(check_graph(scan_model(5, 3)), "main/Scan \"scan\"",
                        "body input 0 ('a') is declared tensor(float)[5], but the scan gives it "
                        "tensor(float)[2]"));
}

TEST(MeaningHoles, ScanInputsOfDifferentLengths) {
  EXPECT_TRUE(has_error(check_graph(scan_model(2, 4)), "main/Scan \"scan\"",
                        "input 1 has scan length 4, but input 0 has 3"));
}

// Scan-8: inputs [batch, sequence, ...]; the body sees [...]. Its outputs get shapes.
GraphBuilder scan8_model(int64_t declared, int64_t second_length) {
  GraphBuilder body("body");
  body.input("a", ElemType::Float, {declared}).input("b", ElemType::Float, {2});
  body.node("Add", {"a", "b"}, {"s"});
  body.output_untyped("s");
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, 3, 2}).input("z", ElemType::Float, {1, second_length, 2});
  auto& n = g.node("Scan", {"", "x", "z"}, {"y"}, "scan");
  test::set_int(n, "num_scan_inputs", 2);
  test::set_graph(n, "body", body);
  g.output_untyped("y");
  return g;
}

TEST(MeaningHoles, ScanEightSlicesLengthsAndOutputShapes) {
  EXPECT_TRUE(is_valid(check_graph(scan8_model(2, 3), 8)));
  EXPECT_TRUE(has_error(check_graph(scan8_model(5, 3), 8), "main/Scan \"scan\"",
                        "is declared tensor(float)[5], but the scan gives it tensor(float)[2]"));
  EXPECT_TRUE(has_error(check_graph(scan8_model(2, 4), 8), "main/Scan \"scan\"",
                        "input 2 has scan length 4, but input 1 has 3"));
}

TEST(MeaningHoles, IfConditionOfMoreOrFewerThanOneElement) {
  for (const Dims64& shape : {Dims64{2}, Dims64{0}}) {
    GraphBuilder g("main");
    g.input("c", ElemType::Bool, shape);
    auto& n = g.node("If", {"c"}, {"y"}, "gate");
    test::set_graph(n, "then_branch", branch("then_g", ElemType::Float, {2}));
    test::set_graph(n, "else_branch", branch("else_g", ElemType::Float, {2}));
    g.output("y", ElemType::Float, {2});
    EXPECT_TRUE(has_error(check_graph(g), "main/If \"gate\"",
                          "the condition must hold exactly one element"));
  }
}

TEST(MeaningHoles, EveryProblemIsListedAfterAnUnknownOperator) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).input("k", ElemType::Int64, {2});
  g.node("NoSuchOp", {"x"}, {"u"}, "unknown");
  g.node("Add", {"x", "k"}, {"y"}, "add");
  g.output("y", ElemType::Float, {2});
  g.output_untyped("u");
  const check::Diagnostics d = check_graph(g);
  EXPECT_TRUE(has_error(d, "main/NoSuchOp \"unknown\"", "unknown operator"));
  EXPECT_TRUE(has_error(d, "main/Add \"add\"", "input 1 (B) has type tensor(int64)"));
}

}  // namespace
}  // namespace bough
