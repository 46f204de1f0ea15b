#include "ir/graph.h"

namespace bough::ir {

const Attribute* Node::attr(std::string_view attr_name) const {
  for (const auto& a : attributes)
    if (a.name == attr_name) return &a;
  return nullptr;
}

std::string Node::label() const { return name.empty() ? op_type : op_type + " \"" + name + "\""; }

Edge* Graph::new_edge(std::string value_name, Edge::Origin origin) {
  auto v = std::make_unique<Edge>();
  v->name = std::move(value_name);
  v->origin = origin;
  v->graph = this;
  edges_.push_back(std::move(v));
  return edges_.back().get();
}

Node* Graph::new_node(std::string op_type, std::string domain) {
  auto n = std::make_unique<Node>();
  n->op_type = std::move(op_type);
  n->domain = std::move(domain);
  n->graph = this;
  nodes.push_back(std::move(n));
  return nodes.back().get();
}

std::string Graph::path() const {
  // Walked up without recursion: the depth of nesting must not cost stack.
  std::vector<const Graph*> chain;
  for (const Graph* g = this; g->owner; g = g->owner->graph) chain.push_back(g);
  const Graph* top = chain.empty() ? this : chain.back()->owner->graph;
  std::string path = top->is_function_body ? "function " + top->name : "main";
  for (auto g = chain.rbegin(); g != chain.rend(); ++g)
    path += "/" + (*g)->owner->label() + "/" + (*g)->owner_attr;
  return path;
}

int64_t Model::opset(std::string_view dom) const {
  if (dom == "ai.onnx") dom = "";
  for (const auto& [d, v] : opset_imports)
    if ((d == "ai.onnx" ? std::string_view() : std::string_view(d)) == dom) return v;
  return 0;
}

std::string describe(Attribute::Kind k) {
  using K = Attribute::Kind;
  switch (k) {
    case K::Undefined:
      return "undefined";
    case K::Float:
      return "a float";
    case K::Int:
      return "an int";
    case K::String:
      return "a string";
    case K::Tensor:
      return "a tensor";
    case K::Graph:
      return "a graph";
    case K::SparseTensor:
      return "a sparse tensor";
    case K::TypeProto:
      return "a type";
    case K::Floats:
      return "floats";
    case K::Ints:
      return "ints";
    case K::Strings:
      return "strings";
    case K::Tensors:
      return "tensors";
    case K::Graphs:
      return "graphs";
    case K::SparseTensors:
      return "sparse tensors";
    case K::TypeProtos:
      return "types";
  }
  return "?";
}

}  // namespace bough::ir
