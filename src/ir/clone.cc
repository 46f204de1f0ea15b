#include "ir/clone.h"

#include <unordered_map>

namespace bough::ir {

namespace {

class Cloner {
 public:
  // Copies `from` into a new graph whose parent is `parent` (already copied) and whose owner
  // is `owner`.
  std::unique_ptr<Graph> graph(const Graph& from, Graph* parent, Node* owner) {
    auto to = std::make_unique<Graph>();
    to->name = from.name;
    to->doc_string = from.doc_string;
    to->metadata = from.metadata;
    to->parent = parent;
    to->owner = owner;
    to->owner_attr = from.owner_attr;
    to->is_function_body = from.is_function_body;
    for (const auto& e : from.edges()) {
      Edge* c = to->new_edge(e->name, e->origin);
      copy_value_details(*e, *c);
      c->producer_index = e->producer_index;
      c->outer = e->outer ? edges_.at(e->outer) : nullptr;
      edges_[e.get()] = c;
    }
    for (const Edge* e : from.inputs) to->inputs.push_back(edges_.at(e));
    for (const Edge* e : from.outputs) to->outputs.push_back(edges_.at(e));
    for (const Edge* e : from.initializers) to->initializers.push_back(edges_.at(e));
    for (const Edge* e : from.captures) to->captures.push_back(edges_.at(e));
    for (const auto& n : from.nodes) node(*n, to.get());
    return to;
  }

  // A copy of `from`, its graphs owned by `owner` in `g`.
  Attribute attribute(const Attribute& from, Graph* g, Node* owner) {
    Attribute a;
    a.name = from.name;
    a.kind = from.kind;
    a.ref_attr_name = from.ref_attr_name;
    a.doc_string = from.doc_string;
    a.f = from.f;
    a.i = from.i;
    a.s = from.s;
    a.t = from.t;
    a.tp = from.tp;
    a.floats = from.floats;
    a.ints = from.ints;
    a.strings = from.strings;
    a.tensors = from.tensors;
    a.type_protos = from.type_protos;
    if (from.g) a.g = graph(*from.g, g, owner);
    for (const auto& sub : from.graphs) a.graphs.push_back(graph(*sub, g, owner));
    return a;
  }

 private:
  Edge* map(const Edge* e) const { return e ? edges_.at(e) : nullptr; }

  void node(const Node& from, Graph* g) {
    Node* n = g->new_node(from.op_type, from.domain);
    n->name = from.name;
    n->overload = from.overload;
    n->doc_string = from.doc_string;
    n->metadata = from.metadata;
    for (const Edge* e : from.inputs) n->inputs.push_back(map(e));
    for (const Edge* e : from.implicit_inputs) n->implicit_inputs.push_back(map(e));
    for (const Edge* e : from.outputs) {
      Edge* out = map(e);
      if (out) out->producer = n;
      n->outputs.push_back(out);
    }
    for (const Attribute& a : from.attributes) n->attributes.push_back(attribute(a, g, n));
  }

  std::unordered_map<const Edge*, Edge*> edges_;
};

}  // namespace

void copy_value_details(const Edge& from, Edge& to) {
  to.type = from.type;
  to.data = from.data;
  to.doc_string = from.doc_string;
  to.metadata = from.metadata;
  to.has_value_info = from.has_value_info;
}

std::unique_ptr<Model> clone_model(const Model& from) {
  auto to = std::make_unique<Model>();
  to->ir_version = from.ir_version;
  to->opset_imports = from.opset_imports;
  to->producer_name = from.producer_name;
  to->producer_version = from.producer_version;
  to->domain = from.domain;
  to->model_version = from.model_version;
  to->doc_string = from.doc_string;
  to->metadata = from.metadata;
  to->path = from.path;
  Cloner cloner;
  if (from.graph) to->graph = cloner.graph(*from.graph, nullptr, nullptr);
  for (const auto& f : from.functions) {
    auto fn = std::make_unique<Function>();
    fn->name = f->name;
    fn->domain = f->domain;
    fn->overload = f->overload;
    fn->attribute_names = f->attribute_names;
    for (const Attribute& a : f->attribute_defaults)
      fn->attribute_defaults.push_back(cloner.attribute(a, nullptr, nullptr));
    fn->opset_imports = f->opset_imports;
    if (f->body) fn->body = cloner.graph(*f->body, nullptr, nullptr);
    fn->doc_string = f->doc_string;
    fn->metadata = f->metadata;
    to->functions.push_back(std::move(fn));
  }
  return to;
}

}  // namespace bough::ir
