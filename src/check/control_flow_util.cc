#include "check/control_flow_util.h"

namespace bough::check {

namespace {

using K = ir::Attribute::Kind;

std::string kind_name(K k) {
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

}  // namespace

std::string count(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

const ir::Attribute* attribute(const NodeSite& site, const char* name, K kind, bool required) {
  const ir::Attribute* a = site.node.attr(name);
  if (!a) {
    if (required)
      site.out.error(site.place,
                     "missing attribute " + std::string(name) + " (" + kind_name(kind) + ")");
    return nullptr;
  }
  if (!a->ref_attr_name.empty()) return nullptr;
  if (a->kind != kind) {
    site.out.error(site.place, "attribute " + std::string(name) + " is " + kind_name(a->kind) +
                                   ", expected " + kind_name(kind));
    return nullptr;
  }
  return a;
}

const ir::Graph* graph_attribute(const NodeSite& site, const char* name) {
  const ir::Attribute* a = attribute(site, name, K::Graph, true);
  return a ? a->g.get() : nullptr;
}

void expect_elem(const ir::Edge* e, ElemType want, const std::string& place,
                 const std::string& what, Diagnostics& out) {
  const ir::Type& t = e->type;
  if (!t.defined() ||
      (t.kind == ir::Type::Kind::Tensor && (t.elem == want || t.elem == ElemType::Undefined)))
    return;
  out.error(place, what + " '" + e->name + "' has type " + ir::to_string(t) + ", expected tensor(" +
                       std::string(elem_name(want)) + ")");
}

}  // namespace bough::check
