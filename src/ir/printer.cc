#include "ir/printer.h"

#include <sstream>

#include "util/printable.h"

namespace bough::ir {

namespace {

std::string ref(const Edge* v) { return v ? "%" + util::printable_name(v->name) : "%<none>"; }

std::string typed(const Edge* v) { return ref(v) + ": " + to_string(v->type); }

template <typename T>
std::string list(const std::vector<T>& items) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < items.size(); ++i) out << (i ? "," : "") << items[i];
  out << "]";
  return out.str();
}

std::string tensor_summary(const Tensor& t) {
  return "tensor(" + std::string(elem_name(t.type())) + ")" + shape_string(t.shape());
}

// `levels`: how many levels of subgraphs below this graph to print (-1: all).
void print_graph_to(const Graph& g, int indent, int levels, std::ostringstream& out);

// A subgraph below the depth asked for: its name and size only.
void print_folded(const Graph& g, int indent, std::ostringstream& out) {
  const size_t n = count_nodes(g);
  out << std::string(static_cast<size_t>(indent), ' ') << "graph \"" << util::printable_name(g.name)
      << "\" folded: " << n << (n == 1 ? " node" : " nodes") << "\n";
}

// Attributes of ai.onnx operators whose int value is an element type (Cast.to, EyeLike and
// Random*.dtype, QuantizeLinear.output_dtype): printed by name, "to = float".
bool names_element_type(const Node& n, const Attribute& a) {
  return (n.domain.empty() || n.domain == "ai.onnx") && a.kind == Attribute::Kind::Int &&
         (a.name == "to" || a.name == "dtype" || a.name == "output_dtype") &&
         a.i == static_cast<int>(a.i) && is_valid_elem_code(static_cast<int>(a.i));
}

void print_attribute(const Node& n, const Attribute& a, int indent, int levels,
                     std::ostringstream& out) {
  out << std::string(static_cast<size_t>(indent), ' ') << a.name;
  if (a.ref_attr_name.empty() &&
      (a.kind == Attribute::Kind::Graph || a.kind == Attribute::Kind::Graphs)) {
    if (a.kind == Attribute::Kind::Graph)
      out << ":\n";
    else
      out << ": " << a.graphs.size() << " graphs\n";
    std::vector<const Graph*> graphs;
    if (a.g) graphs.push_back(a.g.get());
    for (const auto& g : a.graphs) graphs.push_back(g.get());
    for (const Graph* g : graphs) {
      if (levels == 0)
        print_folded(*g, indent + 2, out);
      else
        print_graph_to(*g, indent + 2, levels - 1, out);
    }
    return;
  }
  out << " = " << attribute_value(n, a) << "\n";
}

void print_node(const Node& n, int indent, int levels, std::ostringstream& out) {
  std::string pad(static_cast<size_t>(indent), ' ');
  out << pad;
  for (size_t i = 0; i < n.outputs.size(); ++i) {
    const Edge* v = n.outputs[i];
    out << (i ? ", " : "") << (v && v->type.defined() ? typed(v) : ref(v));
  }
  out << " = " << (n.domain.empty() ? "" : n.domain + ".") << util::printable_name(n.label())
      << "(";
  for (size_t i = 0; i < n.inputs.size(); ++i) out << (i ? ", " : "") << ref(n.inputs[i]);
  out << ")";
  if (!n.implicit_inputs.empty()) {
    out << " captures(";
    for (size_t i = 0; i < n.implicit_inputs.size(); ++i)
      out << (i ? ", " : "") << ref(n.implicit_inputs[i]);
    out << ")";
  }
  out << "\n";
  for (const auto& a : n.attributes) print_attribute(n, a, indent + 4, levels, out);
}

void print_graph_to(const Graph& g, int indent, int levels, std::ostringstream& out) {
  std::string pad(static_cast<size_t>(indent), ' ');
  out << pad << "graph \"" << util::printable_name(g.name) << "\"\n";
  for (const Edge* v : g.captures)
    out << pad << "  capture " << typed(v) << " <- " << ref(v->outer) << "\n";
  for (const Edge* v : g.inputs)
    out << pad << "  input " << typed(v) << (v->data ? " (has default)" : "") << "\n";
  for (const Edge* v : g.initializers)
    if (v->origin == Edge::Origin::Initializer) out << pad << "  initializer " << typed(v) << "\n";
  for (const auto& n : g.nodes) print_node(*n, indent + 2, levels, out);
  for (const Edge* v : g.outputs) out << pad << "  output " << typed(v) << "\n";
}

}  // namespace

size_t count_nodes(const Graph& g) {
  size_t n = g.nodes.size();
  for (const auto& node : g.nodes)
    for (const auto& a : node->attributes) {
      if (a.g) n += count_nodes(*a.g);
      for (const auto& sub : a.graphs) n += count_nodes(*sub);
    }
  return n;
}

std::string attribute_value(const Node& n, const Attribute& a) {
  using K = Attribute::Kind;
  if (!a.ref_attr_name.empty()) return "@" + a.ref_attr_name;  // the calling function's
  std::ostringstream out;
  switch (a.kind) {
    case K::Float:
      out << a.f;
      break;
    case K::Int:
      if (names_element_type(n, a))
        out << elem_name(static_cast<ElemType>(a.i));
      else
        out << a.i;
      break;
    case K::String:
      out << '"' << a.s << '"';
      break;
    case K::Tensor:
    case K::SparseTensor:
      out << tensor_summary(a.t);
      break;
    case K::TypeProto:
      out << to_string(a.tp);
      break;
    case K::Floats:
      out << list(a.floats);
      break;
    case K::Ints:
      out << list(a.ints);
      break;
    case K::Strings:
      out << list(a.strings);
      break;
    case K::Tensors:
    case K::SparseTensors:
      out << a.tensors.size() << " tensors";
      break;
    case K::TypeProtos:
      out << a.type_protos.size() << " types";
      break;
    case K::Graph:
      out << "a graph";
      break;
    case K::Graphs:
      out << a.graphs.size() << " graphs";
      break;
    default:
      out << "?";
      break;
  }
  return out.str();
}

std::string print_graph(const Graph& g, int indent) {
  std::ostringstream out;
  print_graph_to(g, indent, -1, out);
  return out.str();
}

std::string print_model(const Model& m, int max_depth) {
  std::ostringstream out;
  out << "model ir_version=" << m.ir_version << " opsets={";
  for (size_t i = 0; i < m.opset_imports.size(); ++i)
    out << (i ? ", " : "") << '"' << m.opset_imports[i].first << "\":" << m.opset_imports[i].second;
  out << "}";
  if (!m.producer_name.empty()) out << " producer=\"" << m.producer_name << "\"";
  out << "\n";
  for (const auto& [k, v] : m.metadata) out << "  metadata " << k << " = \"" << v << "\"\n";
  for (const auto& f : m.functions) {
    out << "function " << f->domain << "." << f->name << "\n";
    print_graph_to(*f->body, 2, max_depth, out);
  }
  print_graph_to(*m.graph, 0, max_depth, out);
  return out.str();
}

}  // namespace bough::ir
