// The checker's Loop and Scan rules: body arity against the node's inputs and outputs in
// both directions, the attributes they need and the lengths of Scan's per-input lists.
#include "check_util.h"

namespace bough::test {
namespace {

const std::string kLoop = "main/Loop \"loop\"";
const std::string kLoopBody = kLoop + "/body";
const std::string kScan = "main/Scan \"scan\"";
const std::string kScanBody = kScan + "/body";

// A Loop body taking (i, cond) and `carried_in` carried values and yielding its condition,
// `carried_out` carried values and `scans` scan outputs (each the outer x, by capture).
GraphBuilder loop_body(int carried_in, int carried_out, int scans) {
  GraphBuilder b("body");
  b.input("i", ElemType::Int64).input("cond_in", ElemType::Bool);
  for (int k = 0; k < carried_in; ++k) b.input("v" + std::to_string(k), ElemType::Float, {2});
  b.node("Identity", {"cond_in"}, {"cond_out"});
  b.output("cond_out", ElemType::Bool);
  for (int k = 0; k < carried_out + scans; ++k) {
    std::string out = "o" + std::to_string(k);
    b.node("Identity", {"x"}, {out});
    b.output_untyped(out);
  }
  return b;
}

// main: Loop "loop"(m, cond, x * carried) with `outputs` outputs.
GraphBuilder loop_model(const GraphBuilder& body, int carried, int outputs) {
  GraphBuilder g("main");
  g.input("m", ElemType::Int64).input("cond", ElemType::Bool).input("x", ElemType::Float, {2});
  std::vector<std::string> ins = {"m", "cond"}, outs;
  for (int k = 0; k < carried; ++k) ins.push_back("x");
  for (int k = 0; k < outputs; ++k) {
    outs.push_back("y" + std::to_string(k));
    g.output_untyped(outs.back());
  }
  set_graph(g.node("Loop", ins, outs, "loop"), "body", body);
  return g;
}

TEST(CheckLoop, BodyWithTooFewInputsIsAnError) {
  auto d = check_graph(loop_model(loop_body(0, 1, 0), 1, 1));
  EXPECT_TRUE(has_error(d, kLoopBody,
                        "the Loop body takes 2 inputs, expected 3 (iteration number, condition "
                        "and 1 carried value)"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckLoop, BodyWithTooManyInputsIsAnError) {
  auto d = check_graph(loop_model(loop_body(2, 1, 0), 1, 1));
  EXPECT_TRUE(has_error(d, kLoopBody, "the Loop body takes 4 inputs, expected 3"));
}

TEST(CheckLoop, BodyWithTooFewOutputsIsAnError) {
  // Two carried values, but the body yields its condition and one value.
  auto d = check_graph(loop_model(loop_body(2, 1, 0), 2, 2));
  EXPECT_TRUE(has_error(d, kLoopBody,
                        "the Loop body yields 2 outputs, expected at least 3 (condition and 2 "
                        "carried values, then scan outputs)"));
}

TEST(CheckLoop, BodyWithMoreOutputsThanTheNodeIsAnError) {
  // One carried value and one scan output in the body, but the node has one output.
  auto d = check_graph(loop_model(loop_body(1, 1, 1), 1, 1));
  EXPECT_TRUE(has_error(d, kLoop,
                        "Loop has 1 output, expected 2 (the body yields 1 carried value and 1 "
                        "scan output)"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckLoop, NodeWithMoreOutputsThanTheBodyIsAnError) {
  auto d = check_graph(loop_model(loop_body(1, 1, 0), 1, 3));
  EXPECT_TRUE(has_error(d, kLoop, "Loop has 3 outputs, expected 1"));
}

TEST(CheckLoop, FewerThanTwoInputsIsAnError) {
  GraphBuilder g("main");
  g.input("m", ElemType::Int64).input("x", ElemType::Float, {2}).output_untyped("y");
  set_graph(g.node("Loop", {"m"}, {"y"}, "loop"), "body", loop_body(0, 0, 1));
  EXPECT_TRUE(has_error(check_graph(g), kLoop, "Loop takes at least 2 inputs"));
}

TEST(CheckLoop, BodyConditionDeclaredAsFloatIsAnError) {
  GraphBuilder body = loop_body(1, 1, 0);
  body.mutable_proto().mutable_input(1)->mutable_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(ElemType::Float));
  body.mutable_proto().mutable_input(0)->mutable_type()->mutable_tensor_type()->set_elem_type(
      static_cast<int>(ElemType::Int32));
  auto d = check_graph(loop_model(body, 1, 1));
  EXPECT_TRUE(has_error(d, kLoopBody,
                        "condition 'cond_in' has type tensor(float)[], expected tensor(bool)"));
  EXPECT_TRUE(has_error(d, kLoopBody,
                        "iteration number 'i' has type tensor(int32)[], expected tensor(int64)"));
}

TEST(CheckLoop, BodyGivenAsAnIntIsAnError) {
  GraphBuilder g("main");
  g.input("m", ElemType::Int64).input("cond", ElemType::Bool).output_untyped("y");
  set_int(g.node("Loop", {"m", "cond"}, {"y"}, "loop"), "body", 3);
  EXPECT_TRUE(has_error(check_graph(g), kLoop, "attribute body is an int, expected a graph"));
}

// A Scan body taking `inputs` values and yielding `outputs` (each the outer x, by capture).
GraphBuilder scan_body(int inputs, int outputs) {
  GraphBuilder b("body");
  for (int k = 0; k < inputs; ++k) b.input("b" + std::to_string(k), ElemType::Float, {2});
  for (int k = 0; k < outputs; ++k) {
    std::string out = "o" + std::to_string(k);
    b.node("Identity", {"x"}, {out});
    b.output_untyped(out);
  }
  return b;
}

// main: Scan "scan"(x * inputs) with num_scan_inputs `scan_inputs` and `outputs` outputs.
GraphBuilder scan_model(const GraphBuilder& body, int inputs, int scan_inputs, int outputs) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  std::vector<std::string> ins(static_cast<size_t>(inputs), "x"), outs;
  for (int k = 0; k < outputs; ++k) {
    outs.push_back("y" + std::to_string(k));
    g.output_untyped(outs.back());
  }
  auto& n = g.node("Scan", ins, outs, "scan");
  set_graph(n, "body", body);
  if (scan_inputs >= 0) set_int(n, "num_scan_inputs", scan_inputs);
  return g;
}

TEST(CheckScan, BodyWithWrongInputCountIsAnError) {
  // One state and one scan input: the body must take 2.
  auto d = check_graph(scan_model(scan_body(1, 2), 2, 1, 2));
  EXPECT_TRUE(has_error(d, kScanBody,
                        "the Scan body takes 1 input, expected 2 (1 state and 1 scan input)"));
  EXPECT_TRUE(has_error(check_graph(scan_model(scan_body(3, 2), 2, 1, 2)), kScanBody,
                        "the Scan body takes 3 inputs, expected 2"));
}

TEST(CheckScan, BodyWithFewerOutputsThanStatesIsAnError) {
  auto d = check_graph(scan_model(scan_body(3, 1), 3, 1, 1));
  EXPECT_TRUE(has_error(d, kScanBody,
                        "the Scan body yields 1 output, expected at least 2 (the states, then "
                        "scan outputs)"));
}

TEST(CheckScan, BodyWithMoreOutputsThanTheNodeIsAnError) {
  auto d = check_graph(scan_model(scan_body(2, 3), 2, 1, 2));
  EXPECT_TRUE(has_error(d, kScan,
                        "Scan has 2 outputs, expected 3 (the body yields 1 state and 2 scan "
                        "outputs)"));
  EXPECT_EQ(d.errors(), 1u);
}

TEST(CheckScan, NodeWithMoreOutputsThanTheBodyIsAnError) {
  EXPECT_TRUE(has_error(check_graph(scan_model(scan_body(2, 2), 2, 1, 3)), kScan,
                        "Scan has 3 outputs, expected 2"));
}

TEST(CheckScan, MissingOrOversizedNumScanInputsIsAnError) {
  EXPECT_TRUE(has_error(check_graph(scan_model(scan_body(2, 2), 2, -1, 2)), kScan,
                        "missing attribute num_scan_inputs (an int)"));
  EXPECT_TRUE(has_error(check_graph(scan_model(scan_body(2, 2), 2, 3, 2)), kScan,
                        "num_scan_inputs is 3, expected 1 to 2"));
}

TEST(CheckScan, PerInputAndPerOutputListsOfTheWrongLengthAreErrors) {
  GraphBuilder g = scan_model(scan_body(2, 2), 2, 1, 2);
  auto& n = *g.mutable_proto().mutable_node(0);
  set_ints(n, "scan_input_axes", {0, 0});
  set_ints(n, "scan_output_directions", {0, 1, 0});
  auto d = check_graph(g);
  EXPECT_TRUE(has_error(d, kScan, "attribute scan_input_axes has 2 entries, expected 1"));
  EXPECT_TRUE(has_error(d, kScan, "attribute scan_output_directions has 3 entries, expected 1"));
  EXPECT_EQ(d.errors(), 2u);
}

TEST(CheckScan, Scan8CountsSequenceLensApartAndChecksDirections) {
  // Scan-8: (sequence_lens, state, scan input); the body takes 2 and `directions` has one
  // entry per scan input.
  GraphBuilder g = scan_model(scan_body(2, 2), 3, 1, 2);
  g.mutable_proto().mutable_node(0)->set_input(0, "");
  set_ints(*g.mutable_proto().mutable_node(0), "directions", {0, 0});
  auto d = check_graph(g, 8);
  EXPECT_TRUE(has_error(d, kScan, "attribute directions has 2 entries, expected 1"));
  EXPECT_EQ(d.errors(), 1u);
}

}  // namespace
}  // namespace bough::test
