#include "model_builder.h"

#include <gtest/gtest.h>

#include <fstream>

#include "bough/error.h"
#include "bough/session.h"
#include "formats/onnx/tensor_proto.h"
#include "ir/float_formats.h"
#include "test_paths.h"

namespace bough::test {

namespace {
void set_type(onnxpb::ValueInfoProto* vi, ElemType t, const Dims64& dims, bool ranked) {
  auto* tt = vi->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(static_cast<int>(t));
  if (!ranked) return;
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    auto* dim = shape->add_dim();
    if (d >= 0) dim->set_dim_value(d);
  }
}
onnxpb::AttributeProto* add_attr(onnxpb::NodeProto& n, const std::string& name,
                                 onnxpb::AttributeProto::AttributeType type) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(type);
  return a;
}
}  // namespace

GraphBuilder& GraphBuilder::input(const std::string& name, ElemType t, Dims64 dims, bool ranked) {
  auto* vi = g_.add_input();
  vi->set_name(name);
  set_type(vi, t, dims, ranked);
  return *this;
}

GraphBuilder& GraphBuilder::output(const std::string& name, ElemType t, Dims64 dims, bool ranked) {
  auto* vi = g_.add_output();
  vi->set_name(name);
  set_type(vi, t, dims, ranked);
  return *this;
}

GraphBuilder& GraphBuilder::g_input_sequence(const std::string& name) {
  auto* vi = g_.add_input();
  vi->set_name(name);
  vi->mutable_type()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(static_cast<int>(ElemType::Float));
  return *this;
}

GraphBuilder& GraphBuilder::value_info(const std::string& name, ElemType t, Dims64 dims) {
  auto* vi = g_.add_value_info();
  vi->set_name(name);
  set_type(vi, t, dims, true);
  return *this;
}

GraphBuilder& GraphBuilder::name_input_dim(int index, int dim, const std::string& param) {
  g_.mutable_input(index)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(dim)
      ->set_dim_param(param);
  return *this;
}

GraphBuilder& GraphBuilder::output_untyped(const std::string& name) {
  g_.add_output()->set_name(name);
  return *this;
}

GraphBuilder& GraphBuilder::initializer(const std::string& name, const Tensor& t) {
  auto* p = g_.add_initializer();
  onnx::tensor_to_proto(t, p);
  p->set_name(name);
  return *this;
}

onnxpb::NodeProto& GraphBuilder::node(const std::string& op, std::vector<std::string> inputs,
                                      std::vector<std::string> outputs, const std::string& name) {
  auto* n = g_.add_node();
  n->set_op_type(op);
  if (!name.empty()) n->set_name(name);
  for (auto& i : inputs) n->add_input(i);
  for (auto& o : outputs) n->add_output(o);
  return *n;
}

void set_int(onnxpb::NodeProto& n, const std::string& name, int64_t v) {
  add_attr(n, name, onnxpb::AttributeProto::INT)->set_i(v);
}
void set_ints(onnxpb::NodeProto& n, const std::string& name, const Dims64& v) {
  auto* a = add_attr(n, name, onnxpb::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}
void set_float(onnxpb::NodeProto& n, const std::string& name, float v) {
  add_attr(n, name, onnxpb::AttributeProto::FLOAT)->set_f(v);
}
void set_floats(onnxpb::NodeProto& n, const std::string& name, const std::vector<float>& v) {
  auto* a = add_attr(n, name, onnxpb::AttributeProto::FLOATS);
  for (float x : v) a->add_floats(x);
}
void set_tensor(onnxpb::NodeProto& n, const std::string& name, const Tensor& t) {
  onnx::tensor_to_proto(t, add_attr(n, name, onnxpb::AttributeProto::TENSOR)->mutable_t());
}
void set_graph(onnxpb::NodeProto& n, const std::string& name, const GraphBuilder& g) {
  *add_attr(n, name, onnxpb::AttributeProto::GRAPH)->mutable_g() = g.proto();
}

onnxpb::ModelProto make_model(const GraphBuilder& g, int64_t opset, int64_t ir_version) {
  onnxpb::ModelProto m;
  m.set_ir_version(ir_version);
  m.set_producer_name("bough-tests");
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  *m.mutable_graph() = g.proto();
  return m;
}

std::string save_model(const onnxpb::ModelProto& m, const std::string& dir,
                       const std::string& name) {
  std::string path = dir + "/" + name;
  std::ofstream out(path, std::ios::binary);
  m.SerializeToOstream(&out);
  return path;
}

Tensor f32(Dims64 dims, std::vector<float> values) {
  return Tensor::from_vector<float>(ElemType::Float, Dims(std::span<const int64_t>(dims)), values);
}
Tensor i64(Dims64 dims, std::vector<int64_t> values) {
  return Tensor::from_vector<int64_t>(ElemType::Int64, Dims(std::span<const int64_t>(dims)),
                                      values);
}
Tensor packed(ElemType type, Dims64 dims, std::vector<int> fields) {
  Tensor t = Tensor::zeros(type, Dims(std::span<const int64_t>(dims)));
  const int bits = elem_bits(type);
  for (size_t i = 0; i < fields.size(); ++i)
    set_packed(t.data<uint8_t>(), static_cast<int64_t>(i), bits, static_cast<uint8_t>(fields[i]));
  return t;
}
std::vector<int> fields_of(const Tensor& t) {
  std::vector<int> out;
  for (int64_t i = 0; i < t.numel(); ++i)
    out.push_back(get_packed(t.data<uint8_t>(), i, elem_bits(t.type())));
  return out;
}
Tensor boolean(Dims64 dims, std::vector<bool> values) {
  Tensor t(ElemType::Bool, Dims(std::span<const int64_t>(dims)));
  for (size_t i = 0; i < values.size(); ++i) t.data<bool>()[i] = values[i];
  return t;
}
std::vector<float> floats_of(const Tensor& t) {
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

std::vector<int64_t> int64s_of(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numel(); ++i)
    v.push_back(t.type() == ElemType::Int64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i]);
  return v;
}

std::vector<double> doubles_of(const Tensor& t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t.get_double(i));
  return v;
}

void set_string(onnxpb::NodeProto& n, const std::string& name, const std::string& v) {
  add_attr(n, name, onnxpb::AttributeProto::STRING)->set_s(v);
}
void set_strings(onnxpb::NodeProto& n, const std::string& name, const std::vector<std::string>& v) {
  auto* a = add_attr(n, name, onnxpb::AttributeProto::STRINGS);
  for (const std::string& x : v) a->add_strings(x);
}

std::vector<Tensor> run_node(const std::string& op, const NamedTensors& ins, int outputs,
                             const Attrs& attrs, int64_t opset, const std::string& dir, int threads,
                             const std::string& domain) {
  GraphBuilder g;
  std::vector<std::string> names;
  NamedValues feeds;
  for (const auto& [name, t] : ins) {
    names.push_back(name);
    if (name.empty()) continue;
    g.input(name, t.type(), t.shape().vec());
    feeds.emplace_back(name, t);
  }
  std::vector<std::string> outs;
  for (int i = 0; i < outputs; ++i) {
    outs.push_back("y" + std::to_string(i));
    g.output_untyped(outs.back());
  }
  onnxpb::NodeProto& n = g.node(op, names, outs);
  if (attrs) attrs(n);
  onnxpb::ModelProto m = make_model(g, domain.empty() ? opset : 21, 10);
  if (!domain.empty()) {
    m.mutable_graph()->mutable_node(0)->set_domain(domain);
    auto* import = m.add_opset_import();
    import->set_domain(domain);
    import->set_version(opset);
  }
  const std::string path = save_model(m, scratch_dir(dir), "m.onnx");
  Session session(Model::load(path), SessionOptions{threads});
  std::vector<Tensor> result;
  for (auto& [name, v] : session.run(feeds)) result.push_back(v.tensor());
  return result;
}

namespace {
void expect_error(ErrorKind kind, const std::function<void()>& fn) {
  try {
    fn();
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
  }
}
}  // namespace

void expect_bad_input(const std::function<void()>& fn) { expect_error(ErrorKind::BadInput, fn); }

void expect_invalid_model(const std::function<void()>& fn) {
  expect_error(ErrorKind::InvalidModel, fn);
}

}  // namespace bough::test
