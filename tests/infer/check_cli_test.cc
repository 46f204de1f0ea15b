// `bough check` and sessions refusing invalid models: exit codes, text and JSON output.
#include <filesystem>

#include "bough/error.h"
#include "bough/session.h"
#include "check_util.h"
#include "formats/onnx/tensor_proto.h"

namespace bough::test {
namespace {

// An If with a second input and a branch with a formal input: two errors.
std::string save_invalid(const std::string& dir) {
  GraphBuilder t = branch("then", ElemType::Float, {2});
  t.input("p", ElemType::Float, {2});
  GraphBuilder g = if_model(t, branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  g.mutable_proto().mutable_node(0)->add_input("x");
  return save_model(make_model(g, 17), dir, "m.onnx");
}

std::string save_valid(const std::string& dir, int64_t opset = 17) {
  GraphBuilder g = if_model(branch("then", ElemType::Float, {2}),
                            branch("else", ElemType::Float, {2}), ElemType::Float, {2});
  return save_model(make_model(g, opset), dir, "m.onnx");
}

TEST(CheckCli, ValidModelExitsZero) {
  std::string out;
  std::string path = save_valid(scratch_dir("check_cli"));
  EXPECT_EQ(run_cli("check " + path, &out), 0) << out;
  EXPECT_NE(out.find(path + ": valid (0 errors, 0 warnings)"), std::string::npos) << out;
}

TEST(CheckCli, InvalidModelListsEveryErrorAndExitsOne) {
  std::string out;
  std::string path = save_invalid(scratch_dir("check_cli"));
  EXPECT_EQ(run_cli("check " + path, &out), 1) << out;
  EXPECT_NE(out.find(path + ": main/If \"gate\": If takes exactly one input (cond), found 2"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(path + ": main/If \"gate\"/then_branch: an If branch takes no inputs"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("invalid (2 errors, 0 warnings)"), std::string::npos) << out;
}

TEST(CheckCli, JsonOutput) {
  std::string out;
  std::string path = save_invalid(scratch_dir("check_cli"));
  EXPECT_EQ(run_cli("check --json " + path, &out), 1) << out;
  EXPECT_NE(out.find("\"valid\": false, \"errors\": 2, \"warnings\": 0"), std::string::npos) << out;
  EXPECT_NE(out.find("{\"severity\": \"error\", \"kind\": \"invalid\", \"place\": \"main/If "
                     "\\\"gate\\\"\", \"message\": "
                     "\"If takes exactly one input"),
            std::string::npos)
      << out;
  EXPECT_EQ(run_cli("check " + save_valid(scratch_dir("check_cli")) + " --json", &out), 0) << out;
  EXPECT_NE(out.find("\"valid\": true"), std::string::npos) << out;
  EXPECT_NE(out.find("\"diagnostics\": []"), std::string::npos) << out;
}

TEST(CheckCli, AllowNewerOpsetTurnsTheErrorIntoAWarning) {
  std::string out;
  std::string path = save_valid(scratch_dir("check_cli"), 99);
  EXPECT_EQ(run_cli("check " + path, &out), 1) << out;
  EXPECT_NE(out.find(path + ": imports opset ai.onnx 99, newer than bough supports (28)"),
            std::string::npos)
      << out;
  EXPECT_EQ(run_cli("check --allow-newer-opset " + path, &out), 0) << out;
  EXPECT_NE(out.find(path + ": warning: imports opset ai.onnx 99"), std::string::npos) << out;
  EXPECT_NE(out.find("valid (0 errors, 1 warning"), std::string::npos) << out;
}

TEST(CheckCli, ReaderErrorsAndUsage) {
  std::string out;
  // An unresolved name stays the reader's error: exit 1 (invalid model).
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Relu", {"nowhere"}, {"y"}, "relu");
  std::string path = save_model(make_model(g, 17), scratch_dir("check_cli"), "m.onnx");
  EXPECT_EQ(run_cli("check " + path, &out), 1) << out;
  EXPECT_NE(out.find("'nowhere' is not defined"), std::string::npos) << out;
  // With --json the reader's error is the one diagnostic.
  EXPECT_EQ(run_cli("check --json " + path, &out), 1) << out;
  EXPECT_NE(out.find("\"place\": \"main/Relu \\\"relu\\\"\", \"message\": \"input 'nowhere' is "
                     "not defined"),
            std::string::npos)
      << out;
  EXPECT_EQ(run_cli("check /nonexistent/m.onnx", &out), 4) << out;  // I/O
  EXPECT_EQ(run_cli("check --json /nonexistent/m.onnx", &out), 4) << out;
  EXPECT_EQ(run_cli("check", &out), 2) << out;
  EXPECT_EQ(run_cli("check a.onnx b.onnx", &out), 2) << out;
}

TEST(CheckSession, RefusesAnInvalidModelWithItsFirstError) {
  std::string path = save_invalid(scratch_dir("check_session"));
  try {
    Session session(Model::load(path));
    ADD_FAILURE() << "the session accepted an invalid model";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
    EXPECT_EQ(e.where(), path + ": main/If \"gate\"");
    EXPECT_EQ(e.message(),
              "If takes exactly one input (cond), found 2; branches read other values by name "
              "(`bough optimize --repair` turns payload inputs into captures) (and 1 more "
              "error; `bough check` lists them)");
  }
  std::string out;
  EXPECT_EQ(run_cli("run " + path, &out), 1) << out;
  EXPECT_NE(out.find("If takes exactly one input"), std::string::npos) << out;
}

TEST(CheckSession, UnknownOperatorIsUnsupportedUnlessTheModelIsAlsoInvalid) {
  GraphBuilder g("main");
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Frobnicate", {"x"}, {"y"}, "f");
  std::string dir = scratch_dir("check_session");
  try {
    Session session(Model::load(save_model(make_model(g, 17), dir, "m.onnx")));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(e.message().find("unknown operator Frobnicate"), std::string::npos) << e.what();
  }
  // A broken rule comes first, whatever the order of the diagnostics.
  g.node("Relu", {"x"}, {"r1", "r2"}, "relu");
  try {
    Session session(Model::load(save_model(make_model(g, 17), dir, "m2.onnx")));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    EXPECT_NE(e.message().find("Relu has 2 outputs, expected 1 (and 1 more error"),
              std::string::npos)
        << e.what();
  }
}

TEST(CheckSession, NewerOpsetRunsOnlyWhenAllowed) {
  std::string path = save_valid(scratch_dir("check_session"), 99);
  try {
    Session session(Model::load(path));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
  }
  SessionOptions allow;
  allow.allow_newer_opset = true;
  Session session(Model::load(path), allow);
  auto out = session.run({{"c", boolean({}, {true})}, {"x", f32({2}, {1, 2})}});
  // The then-branch yields its constant: zeros.
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{0, 0}));
  std::string text;
  EXPECT_EQ(run_cli("run " + path, &text), 1) << text;
  // No inputs given: bad input data, each missing input listed.
  EXPECT_EQ(run_cli("run --allow-newer-opset " + path, &text), 3) << text;
  EXPECT_NE(text.find("\n    c: tensor(bool)"), std::string::npos) << text;
}

TEST(CheckSession, TestDataSkipsAModelWithAnOperatorBoughLacks) {
  // A backend-layout test of Gradient (ai.onnx.preview.training), which bough does not run.
  const std::filesystem::path test =
      std::filesystem::path(scratch_dir("check_skip")) / "test_gradient";
  std::filesystem::create_directories(test / "test_data_set_0");
  GraphBuilder g;
  g.input("x", ElemType::Float, {1});
  g.output("dy", ElemType::Float, {1});
  onnxpb::NodeProto& n = g.node("Gradient", {"x"}, {"dy"}, "grad");
  n.set_domain("ai.onnx.preview.training");
  set_strings(n, "xs", {"x"});
  set_string(n, "y", "x");
  onnxpb::ModelProto m = make_model(g, 22, 10);
  auto* training = m.add_opset_import();
  training->set_domain("ai.onnx.preview.training");
  training->set_version(1);
  save_model(m, test.string(), "model.onnx");
  const Tensor x = f32({1}, {1});
  onnx::write_tensor_file(x, (test / "test_data_set_0" / "input_0.pb").string());
  onnx::write_tensor_file(x, (test / "test_data_set_0" / "output_0.pb").string());
  std::string out;
  EXPECT_EQ(run_cli("test-data " + test.string(), &out), 0) << out;
  EXPECT_NE(out.find("SKIP test_gradient: "), std::string::npos) << out;
  EXPECT_NE(out.find("0 passed, 0 failed, 1 skipped"), std::string::npos) << out;
}

}  // namespace
}  // namespace bough::test
