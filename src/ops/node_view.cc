#include "ops/node_view.h"

#include "bough/error.h"

namespace bough::ops {

const ir::Attribute* NodeView::attr(std::string_view name) const {
  const ir::Attribute* a = node.attr(name);
  if (!a || a->ref_attr_name.empty()) return a;
  if (function_attrs_)
    for (const ir::Attribute* bound : *function_attrs_)
      if (bound->name == a->ref_attr_name) return bound;
  return nullptr;
}

int64_t NodeView::attr_int(std::string_view name, int64_t fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->i : fallback;
}

float NodeView::attr_float(std::string_view name, float fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->f : fallback;
}

std::string NodeView::attr_string(std::string_view name, std::string fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->s : fallback;
}

std::vector<int64_t> NodeView::attr_ints(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  return a ? a->ints : std::vector<int64_t>{};
}

const ir::Graph& NodeView::graph_attr(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  if (!a || a->kind != ir::Attribute::Kind::Graph || !a->g)
    invalid("missing graph attribute '" + std::string(name) + "'");
  return *a->g;
}

void NodeView::invalid(const std::string& message) const {
  fail(ErrorKind::InvalidModel, where, message);
}

void NodeView::fails_when_run(const std::string& message) const {
  fail(ErrorKind::BadInput, where, message);
}

void NodeView::unsupported(const std::string& message) const {
  fail(ErrorKind::Unsupported, where, message);
}

}  // namespace bough::ops
