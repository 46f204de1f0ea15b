#include "check/control_flow_util.h"

namespace bough::check {

using K = ir::Attribute::Kind;

std::string count(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

const ir::Attribute* attribute(const NodeSite& site, const char* name, K kind, bool required) {
  const ir::Attribute* a = site.node.attr(name);
  if (!a) {
    if (required)
      site.out.error(site.place(),
                     "missing attribute " + std::string(name) + " (" + ir::describe(kind) + ")");
    return nullptr;
  }
  if (!a->ref_attr_name.empty()) return nullptr;
  if (a->kind != kind) {
    site.out.error(site.place(), "attribute " + std::string(name) + " is " + ir::describe(a->kind) +
                                     ", expected " + ir::describe(kind));
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
