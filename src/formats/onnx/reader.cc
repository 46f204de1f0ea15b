#include "formats/onnx/reader.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>
#include <cstring>
#include <filesystem>
#include <limits>
#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "bough/error.h"
#include "formats/onnx/sparse.h"
#include "formats/onnx/tensor_proto.h"
#include "formats/onnx/type_proto.h"
#include "onnx.pb.h"
#include "util/files.h"

namespace bough::onnx {

namespace {

using ir::Edge;
using ir::Graph;
using ir::Node;

// The names visible in one graph, chained to the enclosing graph's scope.
// Subgraphs nested deeper are refused: every stage (checks, inference, passes, planning)
// walks nesting recursively, and this bounds the stack they need. Real models nest a few
// dozen levels at most.
constexpr int kMaxSubgraphDepth = 256;

struct Scope {
  Graph* graph;
  Scope* parent;
  std::unordered_map<std::string, Edge*> names;
  int depth = 0;  // subgraph levels below the main graph
};

ir::Metadata metadata_from(
    const google::protobuf::RepeatedPtrField<onnxpb::StringStringEntryProto>& entries) {
  ir::Metadata m;
  for (const auto& e : entries) m.emplace_back(e.key(), e.value());
  return m;
}

// A capture copies its outer value's type when the subgraph is read, which comes before the
// enclosing graph applies its value_info and output declarations: fills in the types still
// unknown from the outer values in every graph nested in `g`, parents before children (a
// capture may read a capture of the level above).
void complete_capture_types(Graph* g) {
  for (const auto& n : g->nodes)
    for (auto& a : n->attributes) {
      auto visit = [](Graph* sub) {
        for (Edge* c : sub->captures)
          if (c->type.kind == ir::Type::Kind::Undefined) c->type = c->outer->type;
        complete_capture_types(sub);
      };
      if (a.g) visit(a.g.get());
      for (const auto& sub : a.graphs) visit(sub.get());
    }
}

class Reader {
 public:
  Reader(std::string path, std::string model_dir)
      : path_(std::move(path)), model_dir_(std::move(model_dir)) {}

  std::unique_ptr<ir::Model> read(onnxpb::ModelProto& p);

 private:
  std::unique_ptr<Graph> read_graph(onnxpb::GraphProto& p, Scope* parent, Node* owner,
                                    const std::string& attr_name);
  void read_function(onnxpb::FunctionProto& p, ir::Model* model);
  void read_nodes(google::protobuf::RepeatedPtrField<onnxpb::NodeProto>& nodes, Scope* scope);
  void read_attribute(onnxpb::AttributeProto& p, Node* node, Scope* scope, ir::Attribute* out);
  Edge* resolve(Scope* scope, const std::string& name);
  void sort_topologically(Graph* graph);
  std::string where(const Graph* g) const { return path_ + ": " + g->path(); }
  std::string where(const Node* n) const { return where(n->graph) + "/" + n->label(); }

  std::string path_;
  std::string model_dir_;
};

std::unique_ptr<ir::Model> Reader::read(onnxpb::ModelProto& p) {
  auto model = std::make_unique<ir::Model>();
  model->path = path_;
  model->ir_version = p.ir_version();
  for (const auto& op : p.opset_import())
    model->opset_imports.emplace_back(op.domain(), op.version());
  model->producer_name = p.producer_name();
  model->producer_version = p.producer_version();
  model->domain = p.domain();
  model->model_version = p.model_version();
  model->doc_string = p.doc_string();
  model->metadata = metadata_from(p.metadata_props());
  if (!p.has_graph()) fail(ErrorKind::InvalidModel, path_, "the model has no graph");
  for (auto& f : *p.mutable_functions()) read_function(f, model.get());
  model->graph = read_graph(*p.mutable_graph(), nullptr, nullptr, "");
  return model;
}

void Reader::read_function(onnxpb::FunctionProto& p, ir::Model* model) {
  auto fn = std::make_unique<ir::Function>();
  fn->name = p.name();
  fn->domain = p.domain();
  fn->overload = p.overload();
  fn->doc_string = p.doc_string();
  fn->metadata = metadata_from(p.metadata_props());
  for (const auto& a : p.attribute()) fn->attribute_names.push_back(a);
  for (const auto& op : p.opset_import()) fn->opset_imports[op.domain()] = op.version();
  auto body = std::make_unique<Graph>();
  body->name = p.name();
  body->is_function_body = true;
  Scope scope{body.get(), nullptr, {}};
  for (auto& a : *p.mutable_attribute_proto()) {
    fn->attribute_defaults.emplace_back();
    read_attribute(a, nullptr, &scope, &fn->attribute_defaults.back());
  }
  for (const auto& name : p.input()) {
    Edge* v = body->new_edge(name, Edge::Origin::Input);
    body->inputs.push_back(v);
    scope.names[name] = v;
  }
  read_nodes(*p.mutable_node(), &scope);
  for (const auto& vi : p.value_info()) {
    auto it = scope.names.find(vi.name());
    if (it != scope.names.end() && vi.has_type()) {
      it->second->type = type_from_proto(vi.type(), where(body.get()));
      it->second->has_value_info = true;
    }
  }
  for (const auto& name : p.output()) {
    Edge* v = resolve(&scope, name);
    if (!v)
      fail(ErrorKind::InvalidModel, where(body.get()), "output '" + name + "' is not defined");
    body->outputs.push_back(v);
  }
  complete_capture_types(body.get());
  sort_topologically(body.get());
  fn->body = std::move(body);
  model->functions.push_back(std::move(fn));
}

std::unique_ptr<Graph> Reader::read_graph(onnxpb::GraphProto& p, Scope* parent, Node* owner,
                                          const std::string& attr_name) {
  auto graph = std::make_unique<Graph>();
  Graph* g = graph.get();
  g->name = p.name();
  g->doc_string = p.doc_string();
  g->metadata = metadata_from(p.metadata_props());
  g->parent = parent ? parent->graph : nullptr;
  g->owner = owner;
  g->owner_attr = attr_name;
  Scope scope{g, parent, {}, parent ? parent->depth + 1 : 0};
  if (scope.depth > kMaxSubgraphDepth)
    fail(ErrorKind::Unsupported, where(g),
         "subgraphs are nested more than " + std::to_string(kMaxSubgraphDepth) + " levels deep");

  for (const auto& vi : p.input()) {
    if (scope.names.count(vi.name()))
      fail(ErrorKind::InvalidModel, where(g), "duplicate input name '" + vi.name() + "'");
    Edge* v = g->new_edge(vi.name(), Edge::Origin::Input);
    if (vi.has_type()) v->type = type_from_proto(vi.type(), where(g));
    v->has_value_info = vi.has_type();
    v->doc_string = vi.doc_string();
    v->metadata = metadata_from(vi.metadata_props());
    g->inputs.push_back(v);
    scope.names[vi.name()] = v;
  }
  auto add_initializer = [&](const std::string& name, Tensor data) {
    auto it = scope.names.find(name);
    Edge* v;
    if (it != scope.names.end()) {
      v = it->second;  // an input with a default value (IR < 4 listed initializers as inputs)
      if (v->data) fail(ErrorKind::InvalidModel, where(g), "duplicate initializer '" + name + "'");
    } else {
      v = g->new_edge(name, Edge::Origin::Initializer);
      scope.names[name] = v;
      v->type = ir::Type::tensor(data.type());
      v->type.shape.rank_known = true;
      for (int64_t d : data.shape()) v->type.shape.dims.push_back(ir::Dim::known(d));
    }
    v->data = std::move(data);
    g->initializers.push_back(v);
    return v;
  };
  for (auto& t : *p.mutable_initializer()) {
    if (t.name().empty()) fail(ErrorKind::InvalidModel, where(g), "an initializer has no name");
    Edge* v = add_initializer(
        t.name(),
        take_tensor_from_proto(&t, model_dir_, where(g) + " initializer '" + t.name() + "'"));
    v->doc_string = t.doc_string();
    if (v->origin == Edge::Origin::Initializer) v->metadata = metadata_from(t.metadata_props());
  }
  for (const auto& st : p.sparse_initializer()) {
    std::string name = st.values().name();
    add_initializer(
        name, dense_from_sparse(st, model_dir_, where(g) + " sparse initializer '" + name + "'"));
  }

  read_nodes(*p.mutable_node(), &scope);

  for (const auto& vi : p.value_info()) {
    auto it = scope.names.find(vi.name());
    if (it == scope.names.end() || !vi.has_type()) continue;
    it->second->type = type_from_proto(vi.type(), where(g));
    it->second->has_value_info = true;
    it->second->doc_string = vi.doc_string();
    it->second->metadata = metadata_from(vi.metadata_props());
  }
  for (const auto& vi : p.output()) {
    Edge* v = resolve(&scope, vi.name());
    if (!v)
      fail(ErrorKind::InvalidModel, where(g),
           "output '" + vi.name() + "' is not defined in this graph or any enclosing graph");
    if (vi.has_type() && v->origin == Edge::Origin::NodeOutput) {
      v->type = type_from_proto(vi.type(), where(g));
      v->has_value_info = true;
      v->doc_string = vi.doc_string();
      v->metadata = metadata_from(vi.metadata_props());
    } else if (vi.has_type() && v->origin == Edge::Origin::Capture &&
               v->type.kind == ir::Type::Kind::Undefined) {
      // A branch or body that returns an outer value directly declares its type here: a
      // Loop or Scan that runs zero times shapes its empty scan output from it.
      v->type = type_from_proto(vi.type(), where(g));
    }
    g->outputs.push_back(v);
  }
  // Once, from the top: capture types flow down through every level of nesting.
  if (!parent) complete_capture_types(g);
  sort_topologically(g);
  return graph;
}

void Reader::read_nodes(google::protobuf::RepeatedPtrField<onnxpb::NodeProto>& nodes,
                        Scope* scope) {
  Graph* g = scope->graph;
  // Pass 1: create every node and its outputs, so inputs may refer to any of them
  // (the file's node order is checked by the topological sort, not by name lookup).
  for (const auto& np : nodes) {
    Node* n = g->new_node(np.op_type(), np.domain() == "ai.onnx" ? "" : np.domain());
    n->name = np.name();
    n->overload = np.overload();
    n->doc_string = np.doc_string();
    n->metadata = metadata_from(np.metadata_props());
    for (int i = 0; i < np.output_size(); ++i) {
      const std::string& name = np.output(i);
      if (name.empty()) {
        n->outputs.push_back(nullptr);
        continue;
      }
      if (scope->names.count(name))
        fail(ErrorKind::InvalidModel, where(n),
             "output name '" + name + "' is already defined in this graph (names must be unique)");
      Edge* v = g->new_edge(name, Edge::Origin::NodeOutput);
      v->producer = n;
      v->producer_index = i;
      n->outputs.push_back(v);
      scope->names[name] = v;
    }
  }
  // Pass 2: resolve inputs and read attributes (subgraphs see all of this graph's names).
  size_t first = g->nodes.size() - static_cast<size_t>(nodes.size());
  for (int k = 0; k < nodes.size(); ++k) {
    auto& np = *nodes.Mutable(k);
    Node* n = g->nodes[first + static_cast<size_t>(k)].get();
    for (const auto& name : np.input()) {
      if (name.empty()) {
        n->inputs.push_back(nullptr);
        continue;
      }
      Edge* v = resolve(scope, name);
      if (!v)
        fail(ErrorKind::InvalidModel, where(n),
             "input '" + name + "' is not defined in this graph or any enclosing graph");
      n->inputs.push_back(v);
    }
    for (auto& ap : *np.mutable_attribute()) {
      n->attributes.emplace_back();
      read_attribute(ap, n, scope, &n->attributes.back());
    }
  }
}

Edge* Reader::resolve(Scope* scope, const std::string& name) {
  auto it = scope->names.find(name);
  if (it != scope->names.end()) return it->second;
  if (!scope->parent) return nullptr;
  Edge* outer = resolve(scope->parent, name);
  if (!outer) return nullptr;
  Graph* g = scope->graph;
  Edge* cap = g->new_edge(name, Edge::Origin::Capture);
  cap->outer = outer;
  cap->type = outer->type;
  g->captures.push_back(cap);
  scope->names[name] = cap;
  auto& implicit = g->owner->implicit_inputs;
  if (std::find(implicit.begin(), implicit.end(), outer) == implicit.end())
    implicit.push_back(outer);
  return cap;
}

void Reader::read_attribute(onnxpb::AttributeProto& p, Node* node, Scope* scope, ir::Attribute* a) {
  using K = ir::Attribute::Kind;
  a->name = p.name();
  a->ref_attr_name = p.ref_attr_name();
  a->doc_string = p.doc_string();
  std::string place = (node ? where(node) : where(scope->graph)) + " attribute '" + p.name() + "'";
  auto sub = [&](onnxpb::GraphProto& gp, const std::string& label) {
    if (!node) fail(ErrorKind::Unsupported, place, "graph-valued function attribute defaults");
    return read_graph(gp, scope, node, label);
  };
  switch (p.type()) {
    case onnxpb::AttributeProto::FLOAT:
      a->kind = K::Float;
      a->f = p.f();
      break;
    case onnxpb::AttributeProto::INT:
      a->kind = K::Int;
      a->i = p.i();
      break;
    case onnxpb::AttributeProto::STRING:
      a->kind = K::String;
      a->s = p.s();
      break;
    case onnxpb::AttributeProto::TENSOR:
      a->kind = K::Tensor;
      a->t = take_tensor_from_proto(p.mutable_t(), model_dir_, place);
      break;
    case onnxpb::AttributeProto::SPARSE_TENSOR:
      a->kind = K::SparseTensor;
      a->t = dense_from_sparse(p.sparse_tensor(), model_dir_, place);
      break;
    case onnxpb::AttributeProto::GRAPH:
      a->kind = K::Graph;
      a->g = sub(*p.mutable_g(), p.name());
      break;
    case onnxpb::AttributeProto::TYPE_PROTO:
      a->kind = K::TypeProto;
      a->tp = type_from_proto(p.tp(), place);
      break;
    case onnxpb::AttributeProto::FLOATS:
      a->kind = K::Floats;
      a->floats.assign(p.floats().begin(), p.floats().end());
      break;
    case onnxpb::AttributeProto::INTS:
      a->kind = K::Ints;
      a->ints.assign(p.ints().begin(), p.ints().end());
      break;
    case onnxpb::AttributeProto::STRINGS:
      a->kind = K::Strings;
      a->strings.assign(p.strings().begin(), p.strings().end());
      break;
    case onnxpb::AttributeProto::TENSORS:
      a->kind = K::Tensors;
      for (auto& t : *p.mutable_tensors())
        a->tensors.push_back(take_tensor_from_proto(&t, model_dir_, place));
      break;
    case onnxpb::AttributeProto::SPARSE_TENSORS:
      a->kind = K::SparseTensors;
      for (const auto& t : p.sparse_tensors())
        a->tensors.push_back(dense_from_sparse(t, model_dir_, place));
      break;
    case onnxpb::AttributeProto::GRAPHS:
      a->kind = K::Graphs;
      for (int i = 0; i < p.graphs_size(); ++i)
        a->graphs.push_back(sub(*p.mutable_graphs(i), p.name() + "[" + std::to_string(i) + "]"));
      break;
    case onnxpb::AttributeProto::TYPE_PROTOS:
      a->kind = K::TypeProtos;
      for (const auto& t : p.type_protos()) a->type_protos.push_back(type_from_proto(t, place));
      break;
    case onnxpb::AttributeProto::UNDEFINED:
      if (p.ref_attr_name().empty()) fail(ErrorKind::InvalidModel, place, "attribute has no type");
      break;
  }
}

// Records in `g` that node `early` reads a value whose producer the file lists after it.
void note_early_read(Graph* g, size_t early, const std::unordered_map<const Node*, size_t>& index) {
  const Node* reader = g->nodes[early].get();
  auto made_later = [&](const Edge* v) {
    return v && v->producer && v->graph == g && index.at(v->producer) > early;
  };
  for (const std::vector<Edge*>* reads : {&reader->inputs, &reader->implicit_inputs})
    for (const Edge* v : *reads)
      if (made_later(v)) {
        g->early_read = Graph::EarlyRead{reader->label(), v->name, v->producer->label()};
        return;
      }
}

// Orders nodes so every node comes after the producers of its inputs and of the values
// its subgraphs capture. Keeps the file order where it is already valid; a cycle is an error.
void Reader::sort_topologically(Graph* g) {
  size_t n = g->nodes.size();
  std::unordered_map<const Node*, size_t> index;
  for (size_t i = 0; i < n; ++i) index[g->nodes[i].get()] = i;
  std::vector<std::vector<size_t>> users(n);
  std::vector<size_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Node* node = g->nodes[i].get();
    std::unordered_set<size_t> deps;
    auto depend = [&](const Edge* v) {
      if (v && v->producer && v->graph == g) deps.insert(index.at(v->producer));
    };
    for (const Edge* v : node->inputs) depend(v);
    for (const Edge* v : node->implicit_inputs) depend(v);
    for (size_t d : deps) {
      users[d].push_back(i);
      ++pending[i];
    }
  }
  // The first node in the file that reads a value made further down, for the check; a node
  // reading its own output is a cycle of one.
  size_t early = n;
  bool self_read = false;
  for (size_t i = 0; i < n; ++i)
    for (size_t u : users[i]) {
      if (u < i && u < early) early = u;
      self_read = self_read || u == i;
    }
  if (early == n && !self_read) return;
  if (early != n) note_early_read(g, early, index);
  // Kahn's algorithm, always taking the earliest ready node in file order (a min-heap of
  // ready nodes keeps it O(n log n) even for a file in reverse order).
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  for (size_t i = 0; i < n; ++i)
    if (pending[i] == 0) ready.push(i);
  std::vector<size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    const size_t pick = ready.top();
    ready.pop();
    order.push_back(pick);
    for (size_t u : users[pick])
      if (--pending[u] == 0) ready.push(u);
  }
  if (order.size() < n) {
    for (size_t i = 0; i < n; ++i)
      if (pending[i] != 0)
        fail(ErrorKind::InvalidModel, where(g->nodes[i].get()),
             "the graph has a cycle through this node");
  }
  std::vector<std::unique_ptr<Node>> sorted;
  for (size_t i : order) sorted.push_back(std::move(g->nodes[i]));
  g->nodes = std::move(sorted);
}

}  // namespace

// Each subgraph level nests three messages (node, attribute, graph): this admits the
// kMaxSubgraphDepth levels the reader allows (protobuf's default, 100, admits 30), while
// parsing stays well within the stack, also under AddressSanitizer.
constexpr int kMaxMessageDepth = 3 * kMaxSubgraphDepth + 16;

namespace {

// Parses a model of `size` bytes from `raw`.
onnxpb::ModelProto parse_model(google::protobuf::io::ZeroCopyInputStream* raw, uint64_t size,
                               const std::string& path) {
  onnxpb::ModelProto proto;
  bool parsed = false;
  if (size <= static_cast<uint64_t>(std::numeric_limits<int>::max())) {
    google::protobuf::io::CodedInputStream in(raw);
    in.SetRecursionLimit(kMaxMessageDepth);
    parsed = proto.ParseFromCodedStream(&in) && in.ConsumedEntireMessage();
  }
  if (!parsed)
    fail(ErrorKind::InvalidModel, path,
         "not an ONNX model: the protobuf data is malformed, truncated or nested deeper than " +
             std::to_string(kMaxMessageDepth) + " messages");
  return proto;
}

}  // namespace

std::unique_ptr<ir::Model> read_model_bytes(const std::string& bytes, const std::string& path,
                                            const std::string& model_dir) {
  // A size past int's range is refused by parse_model before the stream is read.
  google::protobuf::io::ArrayInputStream raw(
      bytes.data(), static_cast<int>(std::min<size_t>(bytes.size(), INT_MAX)));
  onnxpb::ModelProto proto = parse_model(&raw, bytes.size(), path);
  return Reader(path, model_dir).read(proto);
}

// The file is streamed into the parser in small blocks rather than read whole first, and
// the reader moves each tensor's raw_data into the tensor: a model's weights are held
// once, not three times (file, message, tensor), while it is read.
std::unique_ptr<ir::Model> read_model_file(const std::string& path) {
  const ReadOnlyFile file(path);
  google::protobuf::io::FileInputStream raw(file.fd());
  onnxpb::ModelProto proto = parse_model(&raw, file.size(), path);
  if (raw.GetErrno() != 0)
    fail(ErrorKind::IO, path, std::string("cannot read: ") + std::strerror(raw.GetErrno()));
  std::string dir = std::filesystem::path(path).parent_path().string();
  return Reader(path, dir.empty() ? "." : dir).read(proto);
}

}  // namespace bough::onnx
