// The reader takes an initializer's data out of the parsed message instead of copying it
// (raw_data becomes the tensor's buffer, typed fields are copied then cleared, external data
// is read straight into the tensor): every form must still load the exact bytes the file
// holds, and a loaded model must not depend on its files afterwards.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "bough/model.h"
#include "bough/session.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/tensor_proto.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::GraphBuilder;

// The bytes of `values` as they lie in memory: what a tensor of T holding them contains.
template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

struct Expected {
  std::string name;
  ElemType type;
  std::vector<int64_t> dims;
  std::string bytes;
};

onnxpb::TensorProto* add_tensor(onnxpb::TensorProto* t, const std::string& name, ElemType type,
                                const std::vector<int64_t>& dims) {
  t->set_name(name);
  t->set_data_type(static_cast<int>(type));
  for (int64_t d : dims) t->add_dims(d);
  return t;
}

void add_external_entry(onnxpb::TensorProto* t, const std::string& key, const std::string& value) {
  auto* e = t->add_external_data();
  e->set_key(key);
  e->set_value(value);
}

// A model (saved in `dir`, with its external data file) holding an initializer of every form
// the reader takes, and what each must load as.
onnxpb::ModelProto model_of_every_form(const std::string& dir, std::vector<Expected>* expected) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).output("c", ElemType::Float, {3});
  g.node("Constant", {}, {"c"}, "const");
  onnxpb::ModelProto m = test::make_model(g);
  onnxpb::GraphProto* graph = m.mutable_graph();

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-3, 3);
  std::vector<float> big(3 * 5 * 7);
  for (float& v : big) v = uniform(rng);
  add_tensor(graph->add_initializer(), "raw_f32", ElemType::Float, {3, 5, 7})
      ->set_raw_data(bytes_of(big));
  expected->push_back({"raw_f32", ElemType::Float, {3, 5, 7}, bytes_of(big)});

  add_tensor(graph->add_initializer(), "raw_empty", ElemType::Int8, {0, 4})->set_raw_data("");
  expected->push_back({"raw_empty", ElemType::Int8, {0, 4}, ""});

  // Two 4-bit values per byte, the low nibble first: 3 elements in 2 bytes.
  add_tensor(graph->add_initializer(), "raw_u4", ElemType::UInt4, {3})->set_raw_data("\x21\x03");
  expected->push_back({"raw_u4", ElemType::UInt4, {3}, std::string("\x21\x03", 2)});

  auto* f = add_tensor(graph->add_initializer(), "typed_f32", ElemType::Float, {2, 2});
  for (float v : {1.5f, -0.25f, 3e8f, -7.0f}) f->add_float_data(v);
  expected->push_back(
      {"typed_f32", ElemType::Float, {2, 2}, bytes_of<float>({1.5f, -0.25f, 3e8f, -7.0f})});

  auto* i64 = add_tensor(graph->add_initializer(), "typed_i64", ElemType::Int64, {3});
  for (int64_t v : {int64_t{-1}, int64_t{1} << 40, int64_t{5}}) i64->add_int64_data(v);
  expected->push_back(
      {"typed_i64", ElemType::Int64, {3}, bytes_of<int64_t>({-1, int64_t{1} << 40, 5})});

  auto* i8 = add_tensor(graph->add_initializer(), "typed_i8", ElemType::Int8, {4});
  for (int32_t v : {-1, 2, -128, 127}) i8->add_int32_data(v);
  expected->push_back({"typed_i8", ElemType::Int8, {4}, bytes_of<int8_t>({-1, 2, -128, 127})});

  // float16 values travel as their bit patterns in int32_data: 1.0 and -2.0.
  auto* h = add_tensor(graph->add_initializer(), "typed_f16", ElemType::Float16, {2});
  for (int32_t v : {0x3c00, 0xc000}) h->add_int32_data(v);
  expected->push_back({"typed_f16", ElemType::Float16, {2}, bytes_of<uint16_t>({0x3c00, 0xc000})});

  auto* d = add_tensor(graph->add_initializer(), "typed_f64", ElemType::Double, {2});
  for (double v : {0.1, -1e300}) d->add_double_data(v);
  expected->push_back({"typed_f64", ElemType::Double, {2}, bytes_of<double>({0.1, -1e300})});

  // Two tensors in one external file, the second after 16 bytes that belong to the first.
  std::vector<int64_t> ext_a = {42, -42};
  std::vector<float> ext_b = {0.5f, 1.5f, 2.5f, -3.5f, 4.5f, 5.5f};
  write_bytes(dir + "/weights.bin", bytes_of(ext_a) + bytes_of(ext_b));
  auto* ea = add_tensor(graph->add_initializer(), "external_i64", ElemType::Int64, {2});
  ea->set_data_location(onnxpb::TensorProto::EXTERNAL);
  add_external_entry(ea, "location", "weights.bin");
  add_external_entry(ea, "length", "16");
  expected->push_back({"external_i64", ElemType::Int64, {2}, bytes_of(ext_a)});
  auto* eb = add_tensor(graph->add_initializer(), "external_f32", ElemType::Float, {2, 3});
  eb->set_data_location(onnxpb::TensorProto::EXTERNAL);
  add_external_entry(eb, "location", "weights.bin");
  add_external_entry(eb, "offset", "16");
  add_external_entry(eb, "length", "24");
  expected->push_back({"external_f32", ElemType::Float, {2, 3}, bytes_of(ext_b)});

  // A sparse initializer: the values 1.5 and -2 at flat positions 1 and 4 of six.
  auto* sparse = graph->add_sparse_initializer();
  sparse->add_dims(6);
  add_tensor(sparse->mutable_values(), "sparse", ElemType::Float, {2})
      ->set_raw_data(bytes_of<float>({1.5f, -2.0f}));
  add_tensor(sparse->mutable_indices(), "", ElemType::Int64, {2})
      ->set_raw_data(bytes_of<int64_t>({1, 4}));
  expected->push_back({"sparse", ElemType::Float, {6}, bytes_of<float>({0, 1.5f, 0, 0, -2.0f, 0})});

  // A tensor attribute, read through the same path as the initializers.
  auto* attr = graph->mutable_node(0)->add_attribute();
  attr->set_name("value");
  attr->set_type(onnxpb::AttributeProto::TENSOR);
  add_tensor(attr->mutable_t(), "", ElemType::Float, {3})
      ->set_raw_data(bytes_of<float>({9.0f, 8.0f, 7.0f}));
  return m;
}

void expect_tensor(const Tensor& t, const Expected& e) {
  SCOPED_TRACE(e.name);
  EXPECT_EQ(t.type(), e.type);
  EXPECT_EQ(std::vector<int64_t>(t.shape().begin(), t.shape().end()), e.dims);
  ASSERT_EQ(t.nbytes(), e.bytes.size());
  EXPECT_EQ(std::memcmp(t.raw(), e.bytes.data(), e.bytes.size()), 0);
}

void expect_every_form(const ir::Model& model, const std::vector<Expected>& expected) {
  for (const Expected& e : expected) {
    const Tensor* found = nullptr;
    for (const ir::Edge* v : model.graph->initializers)
      if (v->name == e.name) found = &*v->data;
    ASSERT_NE(found, nullptr) << e.name;
    expect_tensor(*found, e);
  }
  const ir::Attribute& value = model.graph->nodes[0]->attributes[0];
  expect_tensor(value.t, {"Constant value", ElemType::Float, {3}, bytes_of<float>({9, 8, 7})});
}

TEST(OnnxInitializerRead, EveryFormLoadsTheFilesBytesFromAFile) {
  std::string dir = test::scratch_dir("initializer_forms_file");
  std::vector<Expected> expected;
  std::string path = test::save_model(model_of_every_form(dir, &expected), dir, "m.onnx");
  expect_every_form(*onnx::read_model_file(path), expected);
}

TEST(OnnxInitializerRead, EveryFormLoadsTheFilesBytesFromMemory) {
  std::string dir = test::scratch_dir("initializer_forms_bytes");
  std::vector<Expected> expected;
  std::string bytes = model_of_every_form(dir, &expected).SerializeAsString();
  expect_every_form(*onnx::read_model_bytes(bytes, "in memory", dir), expected);
}

TEST(OnnxInitializerRead, StringTensorsFromTypedFields) {
  std::string dir = test::scratch_dir("initializer_strings");
  GraphBuilder g;
  g.input("x", ElemType::Float, {1}).output("x", ElemType::Float, {1});
  onnxpb::ModelProto m = test::make_model(g);
  auto* s = add_tensor(m.mutable_graph()->add_initializer(), "s", ElemType::String, {3});
  for (const char* v : {"ab", "", "a longer string than fits inline"}) s->add_string_data(v);
  auto model = onnx::read_model_file(test::save_model(m, dir, "m.onnx"));
  const Tensor& t = *model->graph->initializers[0]->data;
  ASSERT_EQ(t.numel(), 3);
  EXPECT_EQ(t.strings()[0], "ab");
  EXPECT_EQ(t.strings()[1], "");
  EXPECT_EQ(t.strings()[2], "a longer string than fits inline");
}

// A test-data .pb file goes through the same taking path.
TEST(OnnxInitializerRead, ATensorFileLoadsItsBytes) {
  std::string dir = test::scratch_dir("initializer_value_file");
  onnxpb::TensorProto p;
  std::vector<int16_t> values = {-300, 7, 32767, -32768, 0, 1};
  add_tensor(&p, "t", ElemType::Int16, {2, 3})->set_raw_data(bytes_of(values));
  write_bytes(dir + "/t.pb", p.SerializeAsString());
  Value v = onnx::read_value_file(dir + "/t.pb", onnx::ProtoKind::Tensor);
  expect_tensor(v.tensor(), {"t.pb", ElemType::Int16, {2, 3}, bytes_of(values)});
}

// y = (x + w) * v with w in raw_data and v in an external file: the data file is deleted and
// the model file overwritten before the session is even made.
TEST(OnnxInitializerRead, AModelOutlivesItsFiles) {
  namespace fs = std::filesystem;
  std::string dir = test::scratch_dir("initializer_outlives_files");
  GraphBuilder g;
  g.input("x", ElemType::Float, {4}).output("y", ElemType::Float, {4});
  g.node("Add", {"x", "w"}, {"s"});
  g.node("Mul", {"s", "v"}, {"y"});
  onnxpb::ModelProto m = test::make_model(g);
  add_tensor(m.mutable_graph()->add_initializer(), "w", ElemType::Float, {4})
      ->set_raw_data(bytes_of<float>({1, 2, 3, 4}));
  auto* v = add_tensor(m.mutable_graph()->add_initializer(), "v", ElemType::Float, {4});
  v->set_data_location(onnxpb::TensorProto::EXTERNAL);
  add_external_entry(v, "location", "v.bin");
  write_bytes(dir + "/v.bin", bytes_of<float>({10, -1, 0.5f, 2}));
  std::string path = test::save_model(m, dir, "m.onnx");

  Model model = Model::load(path);
  fs::remove(dir + "/v.bin");
  // Truncated and rewritten in place (the same file, not a new one at that path): data
  // borrowed from a mapping of it would now be gone.
  write_bytes(path, std::string(4096, '\x55'));

  Session session(model);
  NamedValues out = session.run({{"x", test::f32({4}, {0.5f, -2, 1, 6})}});
  // (0.5+1)*10, (-2+2)*-1, (1+3)*0.5, (6+4)*2
  EXPECT_EQ(test::floats_of(out[0].second.tensor()), (std::vector<float>{15, 0, 2, 20}));
}

}  // namespace
}  // namespace bough
