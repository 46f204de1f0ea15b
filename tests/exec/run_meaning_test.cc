// Running refuses only what has no defined meaning: what `bough check` calls an error but
// has one (a type outside an old version's list that the kernel takes, a declared shape the
// computation contradicts) runs, with warnings the Session returns and `bough run` prints.
// Inputs are checked by kind and element type all the way down (sequences, optionals).
// `run --json` stays JSON past 8 values; `convert --opset N` writes N's IR version.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "bough/model_tools.h"
#include "bough/session.h"
#include "error_text.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::GraphBuilder;

std::string save(const GraphBuilder& g, int64_t opset, const std::string& name) {
  return test::save_model(test::make_model(g, opset), test::scratch_dir(name), "m.onnx");
}

bool has_check_error(const std::string& path) {
  for (const Diagnostic& d : check_model(Model::load(path)))
    if (d.error) return true;
  return false;
}

// PyTorch's exports at opset 6 hold int64 Constants, which Constant-1's list (floats only)
// leaves out and every later version allows.
TEST(RunMeaning, AnOpsetSixInt64ConstantRunsWithAWarning) {
  GraphBuilder g("main");
  test::set_tensor(g.node("Constant", {}, {"k"}, "shape"), "value", test::i64({2}, {3, 4}));
  g.output("k", ElemType::Int64, {2});
  const std::string path = save(g, 6, "run_meaning_constant");
  EXPECT_TRUE(has_check_error(path));
  Session session(Model::load(path));
  ASSERT_EQ(session.warnings().size(), 1u);
  EXPECT_NE(session.warnings()[0].find("a newer version allows it"), std::string::npos)
      << session.warnings()[0];
  const Tensor k = session.run({})[0].second.tensor();
  EXPECT_EQ(k.data<int64_t>()[0], 3);
  EXPECT_EQ(k.data<int64_t>()[1], 4);
  std::string out;
  EXPECT_EQ(test::run_cli("run " + path, &out), 0) << out;
  EXPECT_NE(out.find("warning: main/Constant \"shape\": output 0"), std::string::npos) << out;
}

// A type no row of the operator takes has no meaning: refused when running too.
TEST(RunMeaning, ATypeNoVersionTakesIsRefused) {
  GraphBuilder g("main");
  g.input("a", ElemType::Bool, {2});
  g.node("Neg", {"a"}, {"y"});
  g.output_untyped("y");
  test::expect_error_mentioning(
      [&] { Session session(Model::load(save(g, 17, "run_meaning_bool_neg"))); }, "tensor(bool)",
      ErrorKind::InvalidModel);
}

// An If output declared [2] for branches yielding [2] and [3]: the check's error, a run's
// warning; the run returns what the taken branch yields.
TEST(RunMeaning, AnIfOutputDeclaredAgainstItsBranchesRuns) {
  GraphBuilder then_g("then_g"), else_g("else_g");
  then_g.initializer("a", test::f32({2}, {1, 2}));
  then_g.node("Identity", {"a"}, {"ta"});
  then_g.output("ta", ElemType::Float, {2});
  else_g.initializer("b", test::f32({3}, {1, 2, 3}));
  else_g.node("Identity", {"b"}, {"eb"});
  else_g.output("eb", ElemType::Float, {3});
  GraphBuilder g("main");
  g.input("c", ElemType::Bool);
  auto& n = g.node("If", {"c"}, {"y"}, "gate");
  test::set_graph(n, "then_branch", then_g);
  test::set_graph(n, "else_branch", else_g);
  g.output("y", ElemType::Float, {2});
  const std::string path = save(g, 17, "run_meaning_if_declared");
  EXPECT_TRUE(has_check_error(path));
  Session session(Model::load(path));
  EXPECT_FALSE(session.warnings().empty());
  const Tensor y = session.run({{"c", Value(test::boolean({}, {false}))}})[0].second.tensor();
  EXPECT_EQ(y.numel(), 3);
}

// A Loop body's condition output declared [1] while it computes [] (a scalar): the run goes
// by what it computes.
TEST(RunMeaning, ALoopConditionDeclaredAgainstWhatItComputesRuns) {
  GraphBuilder body("body");
  body.input("i", ElemType::Int64, {}).input("cond", ElemType::Bool, {});
  body.input("v", ElemType::Float, {2});
  body.initializer("limit", test::i64({}, {2}));
  body.node("Less", {"i", "limit"}, {"go"});
  body.node("Neg", {"v"}, {"v_out"});
  body.output("go", ElemType::Bool, {1}).output("v_out", ElemType::Float, {2});
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.initializer("c0", test::boolean({}, {true}));
  auto& n = g.node("Loop", {"", "c0", "x"}, {"y"}, "loop");
  test::set_graph(n, "body", body);
  g.output("y", ElemType::Float, {2});
  const std::string path = save(g, 17, "run_meaning_loop_cond");
  EXPECT_TRUE(has_check_error(path));
  Session session(Model::load(path));
  EXPECT_FALSE(session.warnings().empty());
  const Tensor y = session.run({{"x", Value(test::f32({2}, {1, -2}))}})[0].second.tensor();
  // Iterations 0, 1 and 2 run (the condition is read after each): three negations.
  EXPECT_EQ(test::floats_of(y), (std::vector<float>{-1, 2}));
}

// seq(tensor(float)) and optional(seq(tensor(float))) inputs given values of another kind or
// element type are refused as tensors are.
TEST(RunMeaning, SequenceAndOptionalInputsAreTypeChecked) {
  GraphBuilder g("main");
  g.g_input_sequence("s");
  g.node("SequenceLength", {"s"}, {"n"});
  g.output_untyped("n");
  Session session(Model::load(save(g, 17, "run_meaning_seq_input")));
  const Value ints = Value::sequence(ElemType::Int32, {Value(Tensor(ElemType::Int32, Dims{2}))});
  test::expect_error_mentioning(
      [&] {
        session.run({{"s", ints}});
      },
      "input 's': is a sequence of int32 tensors, the model expects "
      "seq(tensor(float)",
      ErrorKind::BadInput);
  test::expect_error_mentioning(
      [&] {
        session.run({{"s", Value(test::f32({2}, {1, 2}))}});
      },
      "input 's': is tensor(float)[2], the model expects seq(tensor(float)", ErrorKind::BadInput);
  const Value floats =
      Value::sequence(ElemType::Float, {Value(test::f32({2}, {1, 2})), Value(test::f32({1}, {3}))});
  EXPECT_EQ(session.run({{"s", floats}})[0].second.tensor().data<int64_t>()[0], 2);

  GraphBuilder o("main");
  o.g_input_sequence("s");
  auto* t = o.mutable_proto().mutable_input(0)->mutable_type();
  onnxpb::TypeProto inner = *t;
  t->Clear();
  *t->mutable_optional_type()->mutable_elem_type() = inner;
  o.node("OptionalHasElement", {"s"}, {"has"});
  o.output_untyped("has");
  Session optional(Model::load(save(o, 18, "run_meaning_optional_input")));
  test::expect_error_mentioning(
      [&] {
        optional.run({{"s", Value(test::f32({2}, {1, 2}))}});
      },
      "is tensor(float)[2], the model expects optional(seq(tensor(float)", ErrorKind::BadInput);
  EXPECT_FALSE(optional.run({{"s", Value()}})[0].second.tensor().data<bool>()[0]);
  EXPECT_TRUE(optional.run({{"s", floats}})[0].second.tensor().data<bool>()[0]);
}

TEST(RunMeaning, RunJsonStaysJsonPastEightValues) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {12});
  g.node("Neg", {"x"}, {"y"});
  g.output("y", ElemType::Float, {12});
  const std::string path = save(g, 17, "run_meaning_json");
  std::string out;
  ASSERT_EQ(test::run_cli("run " + path + " --input x=@random --json", &out), 0) << out;
  EXPECT_EQ(out.find("..."), std::string::npos) << out;
  EXPECT_NE(out.find("\"truncated\": true"), std::string::npos) << out;
  // Python's json reads it.
  const std::string file = test::scratch_dir("run_meaning_json_out") + "/out.json";
  ASSERT_EQ(test::run_command(
                "'" + test::cli_path() + "' run " + path + " --input x=@random --json > " + file +
                    " && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' " + file,
                &out),
            0)
      << out;
}

TEST(RunMeaning, ConvertWritesTheIrVersionOfTheOpset) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2});
  g.node("Neg", {"x"}, {"y"});
  g.output("y", ElemType::Float, {2});
  const std::string dir = test::scratch_dir("run_meaning_convert");
  const std::string in = test::save_model(test::make_model(g, 21, 10), dir, "in.onnx");
  for (const auto& [opset, ir] : {std::pair{17, 8}, std::pair{13, 7}, std::pair{21, 10}}) {
    const std::string out = dir + "/o" + std::to_string(opset) + ".onnx";
    std::string text;
    ASSERT_EQ(
        test::run_cli("convert " + in + " " + out + " --opset " + std::to_string(opset), &text), 0)
        << text;
    onnxpb::ModelProto written;
    std::ifstream file(out, std::ios::binary);
    ASSERT_TRUE(written.ParseFromIstream(&file));
    EXPECT_EQ(written.ir_version(), ir) << "opset " << opset;
  }
}

}  // namespace
}  // namespace bough
