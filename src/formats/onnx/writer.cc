#include "formats/onnx/writer.h"

#include "formats/onnx/tensor_proto.h"
#include "formats/onnx/type_proto.h"
#include "formats/onnx/variables.h"
#include "onnx.pb.h"
#include "util/files.h"

namespace bough::onnx {

namespace {

template <typename Entries>
void metadata_to(const ir::Metadata& m, Entries* out) {
  for (const auto& [k, v] : m) {
    auto* e = out->Add();
    e->set_key(k);
    e->set_value(v);
  }
}

void value_info_to(const ir::Edge& v, onnxpb::ValueInfoProto* p) {
  p->set_name(v.name);
  if (v.type.defined()) type_to_proto(v.type, p->mutable_type());
  if (!v.doc_string.empty()) p->set_doc_string(v.doc_string);
  metadata_to(v.metadata, p->mutable_metadata_props());
}

void graph_to(const ir::Graph& g, onnxpb::GraphProto* p);

void attribute_to(const ir::Attribute& a, onnxpb::AttributeProto* p) {
  using K = ir::Attribute::Kind;
  using A = onnxpb::AttributeProto;
  p->set_name(a.name);
  if (!a.ref_attr_name.empty()) p->set_ref_attr_name(a.ref_attr_name);
  if (!a.doc_string.empty()) p->set_doc_string(a.doc_string);
  switch (a.kind) {
    case K::Undefined:
      p->set_type(A::UNDEFINED);
      break;
    case K::Float:
      p->set_type(A::FLOAT);
      p->set_f(a.f);
      break;
    case K::Int:
      p->set_type(A::INT);
      p->set_i(a.i);
      break;
    case K::String:
      p->set_type(A::STRING);
      p->set_s(a.s);
      break;
    case K::Tensor:
      p->set_type(A::TENSOR);
      tensor_to_proto(a.t, p->mutable_t());
      break;
    case K::SparseTensor:  // kept dense in the IR
      p->set_type(A::TENSOR);
      tensor_to_proto(a.t, p->mutable_t());
      break;
    case K::Graph:
      p->set_type(A::GRAPH);
      graph_to(*a.g, p->mutable_g());
      break;
    case K::TypeProto:
      p->set_type(A::TYPE_PROTO);
      type_to_proto(a.tp, p->mutable_tp());
      break;
    case K::Floats:
      p->set_type(A::FLOATS);
      for (float f : a.floats) p->add_floats(f);
      break;
    case K::Ints:
      p->set_type(A::INTS);
      for (int64_t i : a.ints) p->add_ints(i);
      break;
    case K::Strings:
      p->set_type(A::STRINGS);
      for (const auto& s : a.strings) p->add_strings(s);
      break;
    case K::Tensors:
    case K::SparseTensors:
      p->set_type(A::TENSORS);
      for (const auto& t : a.tensors) tensor_to_proto(t, p->add_tensors());
      break;
    case K::Graphs:
      p->set_type(A::GRAPHS);
      for (const auto& g : a.graphs) graph_to(*g, p->add_graphs());
      break;
    case K::TypeProtos:
      p->set_type(A::TYPE_PROTOS);
      for (const auto& t : a.type_protos) type_to_proto(t, p->add_type_protos());
      break;
  }
}

void node_to(const ir::Node& n, onnxpb::NodeProto* p) {
  p->set_op_type(n.op_type);
  if (!n.domain.empty()) p->set_domain(n.domain);
  if (!n.name.empty()) p->set_name(n.name);
  if (!n.overload.empty()) p->set_overload(n.overload);
  if (!n.doc_string.empty()) p->set_doc_string(n.doc_string);
  // Implicit inputs are not written: the subgraphs name the outer values directly.
  for (const ir::Edge* v : n.inputs) p->add_input(v ? v->name : "");
  for (const ir::Edge* v : n.outputs) p->add_output(v ? v->name : "");
  for (const auto& a : n.attributes) attribute_to(a, p->add_attribute());
  metadata_to(n.metadata, p->mutable_metadata_props());
}

// Value infos for the values a node produces, when their type is known.
void node_value_infos(const ir::Graph& g, onnxpb::GraphProto* p) {
  for (const auto& n : g.nodes)
    for (const ir::Edge* v : n->outputs) {
      if (!v || !v->type.defined()) continue;
      bool is_output = std::find(g.outputs.begin(), g.outputs.end(), v) != g.outputs.end();
      if (!is_output) value_info_to(*v, p->add_value_info());
    }
}

void graph_to(const ir::Graph& g, onnxpb::GraphProto* p) {
  if (!g.name.empty()) p->set_name(g.name);
  if (!g.doc_string.empty()) p->set_doc_string(g.doc_string);
  metadata_to(g.metadata, p->mutable_metadata_props());
  for (const ir::Edge* v : g.inputs) value_info_to(*v, p->add_input());
  for (const ir::Edge* v : g.initializers) {
    auto* t = p->add_initializer();
    tensor_to_proto(*v->data, t);
    t->set_name(v->name);
    if (!v->doc_string.empty() && v->origin == ir::Edge::Origin::Initializer)
      t->set_doc_string(v->doc_string);
    // An input with a default value has its metadata in its value info already.
    if (v->origin == ir::Edge::Origin::Initializer)
      metadata_to(v->metadata, t->mutable_metadata_props());
  }
  for (const auto& n : g.nodes) node_to(*n, p->add_node());
  for (const ir::Edge* v : g.outputs) value_info_to(*v, p->add_output());
  node_value_infos(g, p);
}

void function_to(const ir::Function& f, onnxpb::FunctionProto* p) {
  p->set_name(f.name);
  p->set_domain(f.domain);
  if (!f.overload.empty()) p->set_overload(f.overload);
  if (!f.doc_string.empty()) p->set_doc_string(f.doc_string);
  for (const auto& a : f.attribute_names) p->add_attribute(a);
  for (const auto& a : f.attribute_defaults) attribute_to(a, p->add_attribute_proto());
  for (const auto& [domain, version] : f.opset_imports) {
    auto* op = p->add_opset_import();
    op->set_domain(domain);
    op->set_version(version);
  }
  for (const ir::Edge* v : f.body->inputs) p->add_input(v->name);
  for (const ir::Edge* v : f.body->outputs) p->add_output(v->name);
  for (const auto& n : f.body->nodes) node_to(*n, p->add_node());
  for (const auto& n : f.body->nodes)
    for (const ir::Edge* v : n->outputs)
      if (v && v->has_value_info) value_info_to(*v, p->add_value_info());
  metadata_to(f.metadata, p->mutable_metadata_props());
}

}  // namespace

std::string write_model_bytes(const ir::Model& model) {
  // ONNX has no state: a stateful model is written in its stateless form (variables.h).
  std::unique_ptr<ir::Model> stateless = stateless_form(model);
  const ir::Model& m = stateless ? *stateless : model;
  onnxpb::ModelProto p;
  p.set_ir_version(m.ir_version);
  for (const auto& [domain, version] : m.opset_imports) {
    auto* op = p.add_opset_import();
    op->set_domain(domain);
    op->set_version(version);
  }
  if (!m.producer_name.empty()) p.set_producer_name(m.producer_name);
  if (!m.producer_version.empty()) p.set_producer_version(m.producer_version);
  if (!m.domain.empty()) p.set_domain(m.domain);
  if (m.model_version) p.set_model_version(m.model_version);
  if (!m.doc_string.empty()) p.set_doc_string(m.doc_string);
  metadata_to(m.metadata, p.mutable_metadata_props());
  graph_to(*m.graph, p.mutable_graph());
  for (const auto& f : m.functions) function_to(*f, p.add_functions());
  return p.SerializeAsString();
}

void write_model_file(const ir::Model& model, const std::string& path, bool overwrite) {
  write_file_atomic(path, write_model_bytes(model), overwrite);
}

}  // namespace bough::onnx
