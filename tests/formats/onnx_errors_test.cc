// Malformed models get a clear error (naming the file, node and branch) and exit status 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bough/error.h"
#include "formats/onnx/reader.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::GraphBuilder;

std::string load_error(const std::string& path) {
  try {
    onnx::read_model_file(path);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for " << path;
  return "";
}

int cli_exit(const std::string& path, std::string* out) {
  return test::run_cli("info " + path, out);
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string simple_model_bytes() {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Relu", {"x"}, {"y"}, "r");
  return test::make_model(g).SerializeAsString();
}

TEST(OnnxErrors, TruncatedFile) {
  std::string dir = test::scratch_dir("truncated");
  std::string bytes = simple_model_bytes();
  write_bytes(dir + "/m.onnx", bytes.substr(0, bytes.size() / 2));
  std::string msg = load_error(dir + "/m.onnx");
  EXPECT_NE(msg.find("m.onnx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("malformed, truncated"), std::string::npos) << msg;
  std::string out;
  EXPECT_EQ(cli_exit(dir + "/m.onnx", &out), 1) << out;
}

TEST(OnnxErrors, GarbageFile) {
  std::string dir = test::scratch_dir("garbage");
  write_bytes(dir + "/m.onnx", "\xff\xff\xff\xff this is not protobuf \x01\x02");
  EXPECT_NE(load_error(dir + "/m.onnx").find("not an ONNX model"), std::string::npos);
  std::string out;
  EXPECT_EQ(cli_exit(dir + "/m.onnx", &out), 1) << out;
}

TEST(OnnxErrors, MissingFileIsAnIoError) {
  std::string out;
  EXPECT_EQ(cli_exit("/nonexistent/model.onnx", &out), 2) << out;
}

TEST(OnnxErrors, NameThatResolvesNowhereNamesNodeAndBranch) {
  GraphBuilder then_g("then"), else_g("else");
  then_g.node("Identity", {"nowhere"}, {"t"}, "use_it");
  then_g.output("t", ElemType::Float, {1});
  else_g.node("Identity", {"x"}, {"e"});
  else_g.output("e", ElemType::Float, {1});
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {1}).output("y", ElemType::Float, {1});
  test::set_graph(g.node("If", {"c"}, {"y"}, "gate"), "then_branch", then_g);
  test::set_graph(g.graph_node_last(), "else_branch", else_g);
  std::string dir = test::scratch_dir("unresolved");
  std::string path = test::save_model(test::make_model(g), dir, "m.onnx");
  std::string msg = load_error(path);
  EXPECT_NE(msg.find("main/If \"gate\"/then_branch/Identity \"use_it\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("'nowhere'"), std::string::npos) << msg;
  std::string out;
  EXPECT_EQ(cli_exit(path, &out), 1) << out;
  EXPECT_NE(out.find("then_branch"), std::string::npos) << out;
}

TEST(OnnxErrors, Cycle) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).output("b", ElemType::Float, {1});
  g.node("Add", {"x", "b"}, {"a"}, "first");
  g.node("Relu", {"a"}, {"b"}, "second");
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("cycle"), "m.onnx");
  EXPECT_NE(load_error(path).find("cycle"), std::string::npos);
  std::string out;
  EXPECT_EQ(cli_exit(path, &out), 1) << out;
}

TEST(OnnxErrors, NodesOutOfOrderAreSorted) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).output("b", ElemType::Float, {1});
  g.node("Relu", {"a"}, {"b"});
  g.node("Neg", {"x"}, {"a"});
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("order"), "m.onnx");
  auto model = onnx::read_model_file(path);
  EXPECT_EQ(model->graph->nodes[0]->op_type, "Neg");
}

TEST(OnnxErrors, DuplicateOutputName) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).output("y", ElemType::Float, {1});
  g.node("Relu", {"x"}, {"y"}, "one");
  g.node("Neg", {"x"}, {"y"}, "two");
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("dup"), "m.onnx");
  std::string msg = load_error(path);
  EXPECT_NE(msg.find("Neg \"two\""), std::string::npos) << msg;
  EXPECT_NE(msg.find("already defined"), std::string::npos) << msg;
  std::string out;
  EXPECT_EQ(cli_exit(path, &out), 1) << out;
}

onnxpb::ModelProto external_model(const std::string& location) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Add", {"x", "w"}, {"y"});
  onnxpb::ModelProto m = test::make_model(g);
  auto* w = m.mutable_graph()->add_initializer();
  w->set_name("w");
  w->set_data_type(1);
  w->add_dims(2);
  w->set_data_location(onnxpb::TensorProto::EXTERNAL);
  auto* loc = w->add_external_data();
  loc->set_key("location");
  loc->set_value(location);
  return m;
}

TEST(OnnxErrors, ExternalDataLoadsFromTheModelFolder) {
  std::string dir = test::scratch_dir("external_ok");
  float w[2] = {1.5f, -2.0f};
  write_bytes(dir + "/weights.bin", std::string(reinterpret_cast<char*>(w), sizeof w));
  std::string path = test::save_model(external_model("weights.bin"), dir, "m.onnx");
  auto model = onnx::read_model_file(path);
  const Tensor& t = *model->graph->initializers[0]->data;
  EXPECT_EQ(t.data<float>()[0], 1.5f);
  EXPECT_EQ(t.data<float>()[1], -2.0f);
}

TEST(OnnxErrors, ExternalDataEscapingTheFolderIsRefused) {
  std::string dir = test::scratch_dir("external_escape");
  std::filesystem::create_directories(dir + "/model");
  write_bytes(dir + "/secret.bin", std::string(8, 'x'));
  std::string path = test::save_model(external_model("../secret.bin"), dir + "/model", "m.onnx");
  EXPECT_NE(load_error(path).find("leaves the model's folder"), std::string::npos);
  std::string out;
  EXPECT_EQ(cli_exit(path, &out), 1) << out;
  std::string abs =
      test::save_model(external_model(dir + "/secret.bin"), dir + "/model", "abs.onnx");
  EXPECT_NE(load_error(abs).find("absolute"), std::string::npos);
}

}  // namespace
}  // namespace bough
