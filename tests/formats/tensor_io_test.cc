// TensorProto (typed fields and raw_data) and .npy, read and written.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include "bough/error.h"
#include "formats/npy/npy.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/tensor_proto.h"
#include "formats/onnx/writer.h"
#include "ir/float_formats.h"
#include "model_builder.h"
#include "test_paths.h"
#include "util/files.h"

namespace bough {
namespace {

onnxpb::TensorProto proto_of(ElemType t, std::vector<int64_t> dims) {
  onnxpb::TensorProto p;
  p.set_data_type(static_cast<int>(t));
  for (int64_t d : dims) p.add_dims(d);
  return p;
}

Tensor read(const onnxpb::TensorProto& p) { return onnx::tensor_from_proto(p, "", "test"); }

TEST(TensorProto, TypedFields) {
  auto f = proto_of(ElemType::Float, {2});
  f.add_float_data(1.5f);
  f.add_float_data(-2.0f);
  EXPECT_EQ(read(f).data<float>()[1], -2.0f);

  auto i8 = proto_of(ElemType::Int8, {3});
  for (int v : {-128, 0, 127}) i8.add_int32_data(v);
  EXPECT_EQ(read(i8).data<int8_t>()[0], -128);
  EXPECT_EQ(read(i8).data<int8_t>()[2], 127);

  auto h = proto_of(ElemType::Float16, {1});
  h.add_int32_data(0x3C00);  // 1.0 as half bits
  EXPECT_EQ(read(h).get_double(0), 1.0);

  auto b = proto_of(ElemType::Bool, {2});
  b.add_int32_data(1);
  b.add_int32_data(0);
  EXPECT_TRUE(read(b).data<bool>()[0]);
  EXPECT_FALSE(read(b).data<bool>()[1]);

  auto u32 = proto_of(ElemType::UInt32, {1});
  u32.add_uint64_data(4000000000u);
  EXPECT_EQ(read(u32).data<uint32_t>()[0], 4000000000u);

  auto i64 = proto_of(ElemType::Int64, {1});
  i64.add_int64_data(-(int64_t{1} << 40));
  EXPECT_EQ(read(i64).data<int64_t>()[0], -(int64_t{1} << 40));

  auto d = proto_of(ElemType::Double, {1});
  d.add_double_data(0.1);
  EXPECT_EQ(read(d).data<double>()[0], 0.1);

  auto s = proto_of(ElemType::String, {2});
  s.add_string_data("a");
  s.add_string_data("bc");
  EXPECT_EQ(read(s).strings()[1], "bc");

  // int4: one packed byte per int32, first element in the low nibble: [-1, 7, 3] -> 0x7F, 0x03.
  auto i4 = proto_of(ElemType::Int4, {3});
  i4.add_int32_data(0x7F);
  i4.add_int32_data(0x03);
  Tensor t = read(i4);
  EXPECT_EQ(t.get_int(0), -1);
  EXPECT_EQ(t.get_int(1), 7);
  EXPECT_EQ(t.get_int(2), 3);
}

TEST(TensorProto, RawDataLittleEndian) {
  auto p = proto_of(ElemType::Int32, {2});
  p.set_raw_data(std::string("\x01\x00\x00\x00\xff\xff\xff\xff", 8));
  Tensor t = read(p);
  EXPECT_EQ(t.data<int32_t>()[0], 1);
  EXPECT_EQ(t.data<int32_t>()[1], -1);
}

TEST(TensorProto, CountMismatchIsAnError) {
  auto p = proto_of(ElemType::Float, {3});
  p.add_float_data(1);
  EXPECT_THROW(read(p), Error);
  auto r = proto_of(ElemType::Float, {2});
  r.set_raw_data(std::string(7, '\0'));
  EXPECT_THROW(read(r), Error);
  auto bad = proto_of(ElemType::Float, {1});
  bad.set_data_type(99);
  EXPECT_THROW(read(bad), Error);
}

TEST(TensorProto, WriteThenReadEveryType) {
  for (int code = 1; code <= kLastElemType; ++code) {
    auto type = static_cast<ElemType>(code);
    Tensor t = Tensor::zeros(type, {5});
    if (type == ElemType::String) {
      t.strings()[3] = "x";
    } else {
      for (size_t i = 0; i < t.nbytes(); ++i)
        t.data<uint8_t>()[i] = static_cast<uint8_t>(i * 37 + 1);
      if (type == ElemType::Bool)
        for (int i = 0; i < 5; ++i) t.data<uint8_t>()[i] = i % 2;
    }
    onnxpb::TensorProto p;
    onnx::tensor_to_proto(t, &p);
    Tensor back = read(p);
    ASSERT_EQ(back.type(), type);
    ASSERT_EQ(back.shape(), t.shape());
    if (type == ElemType::String) {
      EXPECT_EQ(back.strings()[3], "x");
    } else {
      EXPECT_EQ(0, std::memcmp(back.raw(), t.raw(), t.nbytes())) << elem_name(type);
    }
  }
}

TEST(Npy, ReadsNumpyFilesAndRoundTrips) {
  // examples/x.npy was written by numpy: float32 [1, 2, 3].
  Tensor x = npy::read_npy(test::source_dir() + "/examples/x.npy");
  EXPECT_EQ(x.type(), ElemType::Float);
  EXPECT_EQ(test::floats_of(x), (std::vector<float>{1, 2, 3}));
  Tensor n = npy::read_npy(test::source_dir() + "/examples/n.npy");
  EXPECT_EQ(n.rank(), 0u);
  EXPECT_EQ(n.data<int64_t>()[0], 5);
  std::string dir = test::scratch_dir("npy");
  Tensor t = test::i64({2, 3}, {1, 2, 3, 4, 5, 6});
  npy::write_npy(t, dir + "/t.npy");
  Tensor back = npy::read_npy(dir + "/t.npy");
  EXPECT_EQ(back.shape(), (Dims{2, 3}));
  EXPECT_EQ(back.data<int64_t>()[5], 6);
  EXPECT_THROW(npy::read_npy(test::source_dir() + "/README.md"), Error);
}

TEST(OnnxWriter, FunctionsMetadataDocStringsAndValueInfoSurvive) {
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Twice", {"x"}, {"t"}).set_domain("local");
  g.node("Identity", {"t"}, {"y"});
  onnxpb::ModelProto m = test::make_model(g);
  auto* op = m.add_opset_import();
  op->set_domain("local");
  op->set_version(1);
  m.set_doc_string("model doc");
  auto* meta = m.add_metadata_props();
  meta->set_key("author");
  meta->set_value("bough");
  m.mutable_graph()->mutable_node(0)->set_doc_string("node doc");
  auto* vi = m.mutable_graph()->add_value_info();
  vi->set_name("t");
  vi->mutable_type()->mutable_tensor_type()->set_elem_type(1);
  auto* fn = m.add_functions();
  fn->set_name("Twice");
  fn->set_domain("local");
  fn->add_input("a");
  fn->add_output("b");
  auto* fop = fn->add_opset_import();
  fop->set_version(17);
  auto* add = fn->add_node();
  add->set_op_type("Add");
  add->add_input("a");
  add->add_input("a");
  add->add_output("b");
  std::string path = test::save_model(m, test::scratch_dir("writer"), "m.onnx");

  auto model = onnx::read_model_file(path);
  onnxpb::ModelProto back;
  ASSERT_TRUE(back.ParseFromString(onnx::write_model_bytes(*model)));
  EXPECT_EQ(back.doc_string(), "model doc");
  ASSERT_EQ(back.metadata_props_size(), 1);
  EXPECT_EQ(back.metadata_props(0).value(), "bough");
  EXPECT_EQ(back.graph().node(0).doc_string(), "node doc");
  ASSERT_EQ(back.functions_size(), 1);
  EXPECT_EQ(back.functions(0).node(0).op_type(), "Add");
  EXPECT_EQ(back.opset_import_size(), 2);
  ASSERT_EQ(back.graph().value_info_size(), 1);
  EXPECT_EQ(back.graph().value_info(0).name(), "t");

  // And the function runs: y = x + x.
  std::string out;
  EXPECT_EQ(test::run_cli("info " + path, &out), 0) << out;
}

TEST(OnnxWriter, CapturesBecomePlainNamesAndIfKeepsOneInput) {
  test::GraphBuilder t("t"), e("e");
  t.node("Neg", {"x"}, {"a"});
  t.output_untyped("a");
  e.output_untyped("x");
  test::GraphBuilder g;
  g.input("c", ElemType::Bool).input("x", ElemType::Float, {1}).output("y", ElemType::Float, {1});
  test::set_graph(g.node("If", {"c"}, {"y"}), "then_branch", t);
  test::set_graph(g.graph_node_last(), "else_branch", e);
  std::string path = test::save_model(test::make_model(g), test::scratch_dir("caps"), "m.onnx");
  auto model = onnx::read_model_file(path);
  ASSERT_EQ(model->graph->nodes[0]->implicit_inputs.size(), 1u);
  onnxpb::ModelProto back;
  ASSERT_TRUE(back.ParseFromString(onnx::write_model_bytes(*model)));
  const auto& node = back.graph().node(0);
  EXPECT_EQ(node.input_size(), 1);
  for (const auto& a : node.attribute()) {
    EXPECT_EQ(a.g().input_size(), 0);
    if (a.name() == "else_branch") {
      EXPECT_EQ(a.g().output(0).name(), "x");
    } else {
      EXPECT_EQ(a.g().node(0).input(0), "x");
    }
  }
}

}  // namespace
}  // namespace bough

namespace bough {
namespace {

TEST(Files, FailedWriteLeavesTheOldFileIntact) {
  std::string dir = test::scratch_dir("atomic");
  std::string path = dir + "/model.onnx";
  write_file_atomic(path, "old");
  EXPECT_THROW(write_file_atomic(path, "new", /*overwrite=*/false), Error);
  EXPECT_EQ(read_file(path), "old");
  // Replacing a folder fails at the rename: the folder and its content stay.
  std::filesystem::create_directories(dir + "/sub");
  write_file_atomic(dir + "/sub/keep", "keep");
  EXPECT_THROW(write_file_atomic(dir + "/sub", "x"), Error);
  EXPECT_EQ(read_file(dir + "/sub/keep"), "keep");
  EXPECT_FALSE(std::filesystem::exists(dir + "/sub.tmp-bough"));
  write_file_atomic(path, "new");
  EXPECT_EQ(read_file(path), "new");
}

}  // namespace
}  // namespace bough
