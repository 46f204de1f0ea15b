// Malformed models get a clear error (naming the file, node and branch) and exit status 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
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
  EXPECT_EQ(cli_exit("/nonexistent/model.onnx", &out), 4) << out;
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

// A model whose Add reads initializer "w", given as `w` (name and type set here).
onnxpb::ModelProto model_with_initializer(const onnxpb::TensorProto& w) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Add", {"x", "w"}, {"y"});
  onnxpb::ModelProto m = test::make_model(g);
  *m.mutable_graph()->add_initializer() = w;
  m.mutable_graph()->mutable_initializer(0)->set_name("w");
  return m;
}

// A tiny file claiming a huge tensor is refused before anything of that size is allocated
// (under ASan an 8 GiB or 2 TiB allocation would abort the test, not throw).
TEST(OnnxErrors, InitializerShapesAreCheckedAgainstTheirDataBeforeAllocating) {
  std::string dir = test::scratch_dir("huge_initializer");
  onnxpb::TensorProto strings;
  strings.set_data_type(static_cast<int>(ElemType::String));
  strings.add_dims(int64_t{1} << 28);
  std::string path = test::save_model(model_with_initializer(strings), dir, "strings.onnx");
  EXPECT_LT(std::filesystem::file_size(path), 200u);
  EXPECT_NE(load_error(path).find("string_data holds 0 values, its shape needs 268435456"),
            std::string::npos);

  onnxpb::TensorProto floats;
  floats.set_data_type(static_cast<int>(ElemType::Float));
  floats.add_dims(int64_t{1} << 39);
  floats.set_raw_data(std::string(8, '\0'));
  path = test::save_model(model_with_initializer(floats), dir, "floats.onnx");
  EXPECT_NE(load_error(path).find("raw_data (bytes) holds 8 values, its shape needs 2199023255552"),
            std::string::npos);

  onnxpb::TensorProto overflow;
  overflow.set_data_type(static_cast<int>(ElemType::Double));
  for (int i = 0; i < 3; ++i) overflow.add_dims(int64_t{1} << 40);
  path = test::save_model(model_with_initializer(overflow), dir, "overflow.onnx");
  EXPECT_NE(load_error(path).find("more than 2^48 elements"), std::string::npos);

  onnxpb::TensorProto empty;  // a zero dim after a huge one holds nothing: valid
  empty.set_data_type(static_cast<int>(ElemType::Float));
  empty.add_dims(int64_t{1} << 60);
  empty.add_dims(0);
  auto model =
      onnx::read_model_file(test::save_model(model_with_initializer(empty), dir, "empty.onnx"));
  EXPECT_EQ(model->graph->initializers[0]->data->numel(), 0);
}

TEST(OnnxErrors, ExternalDataMustBeARegularFileAndIsReadOnlyAsFarAsTheShapeNeeds) {
  std::string dir = test::scratch_dir("external_kinds");
  std::filesystem::create_directories(dir + "/folder");
  for (const char* location : {".", "folder"}) {
    std::string path = test::save_model(external_model(location), dir, "m.onnx");
    EXPECT_NE(load_error(path).find("is not a regular file"), std::string::npos) << location;
  }
  // Two tensors share a file; the second starts at byte 8 and has no length entry: exactly
  // the 8 bytes its shape needs are read.
  float w[4] = {9.0f, 9.0f, 0.25f, 4.0f};
  write_bytes(dir + "/shared.bin", std::string(reinterpret_cast<char*>(w), sizeof w));
  onnxpb::ModelProto m = external_model("shared.bin");
  auto* offset = m.mutable_graph()->mutable_initializer(0)->add_external_data();
  offset->set_key("offset");
  offset->set_value("8");
  auto model = onnx::read_model_file(test::save_model(m, dir, "shared.onnx"));
  const Tensor& t = *model->graph->initializers[0]->data;
  EXPECT_EQ(t.data<float>()[0], 0.25f);
  EXPECT_EQ(t.data<float>()[1], 4.0f);
  auto* length = m.mutable_graph()->mutable_initializer(0)->add_external_data();
  length->set_key("length");
  length->set_value("12");
  EXPECT_NE(load_error(test::save_model(m, dir, "length.onnx"))
                .find("external data length 12 does not match the 8 bytes"),
            std::string::npos);
}

onnxpb::ModelProto sparse_model(int64_t rows, int64_t cols, int64_t row, int64_t col) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Add", {"x", "w"}, {"y"});
  onnxpb::ModelProto m = test::make_model(g);
  auto* sparse = m.mutable_graph()->add_sparse_initializer();
  sparse->add_dims(rows);
  sparse->add_dims(cols);
  auto* values = sparse->mutable_values();
  values->set_name("w");
  values->set_data_type(static_cast<int>(ElemType::Float));
  values->add_dims(1);
  values->add_float_data(7.0f);
  auto* indices = sparse->mutable_indices();
  indices->set_data_type(static_cast<int>(ElemType::Int64));
  indices->add_dims(1);
  indices->add_dims(2);
  indices->add_int64_data(row);
  indices->add_int64_data(col);
  return m;
}

TEST(OnnxErrors, SparseInitializersAreBoundedAndIndexedPerDimension) {
  std::string dir = test::scratch_dir("sparse_bounds");
  auto model = onnx::read_model_file(test::save_model(sparse_model(1, 2, 0, 1), dir, "ok.onnx"));
  const Tensor& t = *model->graph->initializers[0]->data;
  EXPECT_EQ(t.data<float>()[0], 0.0f);
  EXPECT_EQ(t.data<float>()[1], 7.0f);
  // Column 2 of a 2x2 matrix is out of range even though flat index 2 is inside it.
  EXPECT_NE(load_error(test::save_model(sparse_model(2, 2, 0, 2), dir, "col.onnx"))
                .find("sparse index out of range"),
            std::string::npos);
  try {
    onnx::read_model_file(
        test::save_model(sparse_model(int64_t{1} << 20, int64_t{1} << 20, 0, 0), dir, "huge.onnx"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("expands to more than 4 GiB"), std::string::npos);
  }
}

TEST(OnnxErrors, ReverseOrderChainIsSorted) {
  // 2,000 Identity nodes written last-to-first: the reader restores the chain's order.
  GraphBuilder g;
  g.input("v0", ElemType::Float, {1}).output("v2000", ElemType::Float, {1});
  for (int i = 2000; i >= 1; --i)
    g.node("Identity", {"v" + std::to_string(i - 1)}, {"v" + std::to_string(i)},
           "n" + std::to_string(i));
  auto model = onnx::read_model_file(
      test::save_model(test::make_model(g), test::scratch_dir("reverse"), "m.onnx"));
  ASSERT_EQ(model->graph->nodes.size(), 2000u);
  for (size_t i = 0; i < 2000; ++i)
    EXPECT_EQ(model->graph->nodes[i]->name, "n" + std::to_string(i + 1));
}

// Main with inputs c (bool) and x (float[2]) and `depth` Ifs on c nested in then-branches;
// the innermost then-branch yields Neg(x), every else-branch Identity(x). Built in place so
// that a deep model costs linear time to make.
onnxpb::ModelProto nested_ifs(int depth) {
  GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  onnxpb::ModelProto m = test::make_model(g);
  onnxpb::GraphProto* graph = m.mutable_graph();
  std::string out = "y";
  for (int level = 0; level < depth; ++level) {
    onnxpb::NodeProto* node = graph->add_node();
    node->set_op_type("If");
    node->set_name("if" + std::to_string(level));
    node->add_input("c");
    node->add_output(out);
    onnxpb::GraphProto* branches[2];
    for (int b = 0; b < 2; ++b) {
      onnxpb::AttributeProto* a = node->add_attribute();
      a->set_name(b == 0 ? "then_branch" : "else_branch");
      a->set_type(onnxpb::AttributeProto::GRAPH);
      branches[b] = a->mutable_g();
      branches[b]->set_name(a->name() + std::to_string(level));
      branches[b]->add_output()->set_name("r" + std::to_string(level) + "_" + std::to_string(b));
    }
    onnxpb::NodeProto* id = branches[1]->add_node();
    id->set_op_type("Identity");
    id->add_input("x");
    id->add_output(branches[1]->output(0).name());
    graph = branches[0];
    out = graph->output(0).name();
  }
  onnxpb::NodeProto* neg = graph->add_node();
  neg->set_op_type("Neg");
  neg->add_input("x");
  neg->add_output(out);
  return m;
}

// A length-delimited protobuf field: tag, length, bytes.
std::string wire_field(int number, const std::string& bytes) {
  std::string out;
  auto varint = [&](uint64_t v) {
    for (; v >= 0x80; v >>= 7) out += static_cast<char>((v & 0x7f) | 0x80);
    out += static_cast<char>(v);
  };
  varint(static_cast<uint64_t>(number) << 3 | 2);
  varint(bytes.size());
  return out + bytes;
}

// The bytes of nested_ifs(depth), serialized level by level from the inside out, since
// protobuf's own serializer recurses per message and overflows the stack (under ASan)
// thousands of levels down. Field numbers from onnx.proto: ModelProto.graph 7,
// GraphProto.node 1, NodeProto.attribute 5, AttributeProto.g 6.
std::string nested_ifs_bytes(int depth) {
  onnxpb::ModelProto m = nested_ifs(1);  // the top: model, main graph, one If
  onnxpb::NodeProto top = m.graph().node(0);
  onnxpb::GraphProto inner;  // the innermost then-branch: Neg(x)
  inner.set_name("then_branch_inner");
  inner.add_output()->set_name("inner");
  onnxpb::NodeProto* neg = inner.add_node();
  neg->set_op_type("Neg");
  neg->add_input("x");
  neg->add_output("inner");
  // The If at `level` with its then-branch's bytes appended (attributes may come in any order).
  auto if_node_bytes = [&](int level, const std::string& then_graph) {
    onnxpb::NodeProto node = top;  // If(c) -> out, else_branch Identity(x)
    node.set_name("if" + std::to_string(level));
    node.set_output(0, level == 0 ? "y" : "o" + std::to_string(level));
    node.mutable_attribute()->DeleteSubrange(0, 1);  // then_branch, written below
    onnxpb::AttributeProto then_attr;
    then_attr.set_name("then_branch");
    then_attr.set_type(onnxpb::AttributeProto::GRAPH);
    return node.SerializeAsString() +
           wire_field(5, then_attr.SerializeAsString() + wire_field(6, then_graph));
  };
  std::string graph = inner.SerializeAsString();
  for (int level = depth - 1; level >= 1; --level) {
    onnxpb::GraphProto wrapper;  // the then-branch holding the If of `level`
    wrapper.set_name("then_branch" + std::to_string(level));
    wrapper.add_output()->set_name("o" + std::to_string(level));
    graph = wrapper.SerializeAsString() + wire_field(1, if_node_bytes(level, graph));
  }
  onnxpb::GraphProto main_graph = m.graph();
  main_graph.clear_node();
  m.clear_graph();
  return m.SerializeAsString() +
         wire_field(7, main_graph.SerializeAsString() + wire_field(1, if_node_bytes(0, graph)));
}

// Protobuf's default recursion limit (100 messages, three per subgraph level) refused a
// valid model 33 Ifs deep. bough allows 256 levels, a bound on the stack every stage needs;
// beyond it, and beyond the matching protobuf limit, a model is refused with a clear error.
TEST(OnnxErrors, DeeplyNestedIfsRunAndTooDeepNestingIsRefused) {
  std::string dir = test::scratch_dir("nested_ifs");
  for (int depth : {90, 256}) {
    Session session(Model::load(test::save_model(nested_ifs(depth), dir, "deep.onnx")));
    auto run = [&](bool c) {
      Tensor cond(ElemType::Bool, Dims{});
      cond.data<bool>()[0] = c;
      auto out = session.run({{"c", cond}, {"x", test::f32({2}, {1.5f, -2.0f})}});
      return test::floats_of(out[0].second.tensor());
    };
    EXPECT_EQ(run(true), (std::vector<float>{-1.5f, 2.0f})) << depth;
    EXPECT_EQ(run(false), (std::vector<float>{1.5f, -2.0f})) << depth;
  }
  try {
    onnx::read_model_file(test::save_model(nested_ifs(257), dir, "deep257.onnx"));
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported) << e.what();
    EXPECT_NE(std::string(e.what()).find("nested more than 256 levels deep"), std::string::npos)
        << e.what();
  }
  const std::string deep = dir + "/deep5000.onnx";
  write_bytes(deep, nested_ifs_bytes(5000));
  std::string msg = load_error(deep);
  EXPECT_NE(msg.find("deep5000.onnx"), std::string::npos) << msg;
  EXPECT_NE(msg.find("nested deeper than 784 messages"), std::string::npos) << msg;
  // The hand-made encoding is the one protobuf writes: at a depth it can still serialize,
  // it reads back as the same model.
  onnxpb::ModelProto shallow;
  ASSERT_TRUE(shallow.ParseFromString(nested_ifs_bytes(3)));
  EXPECT_EQ(shallow.graph().node(0).attribute_size(), 2);
  write_bytes(dir + "/deep3.onnx", nested_ifs_bytes(3));
  Session three(Model::load(dir + "/deep3.onnx"));
  Tensor cond(ElemType::Bool, Dims{});
  cond.data<bool>()[0] = true;
  auto out = three.run({{"c", cond}, {"x", test::f32({2}, {1.5f, -2.0f})}});
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{-1.5f, 2.0f}));
}

}  // namespace
}  // namespace bough
