#include "ops/registry.h"

namespace bough::ops {

// Every operator file defines one `const OpDef& def_<Name>()`; op_list.inc names them all.
#define BOUGH_OP(name) const OpDef& def_##name();
#include "ops/op_list.inc"
#undef BOUGH_OP

const std::vector<const OpDef*>& all_ops() {
  static const std::vector<const OpDef*> ops = {
#define BOUGH_OP(name) &def_##name(),
#include "ops/op_list.inc"
#undef BOUGH_OP
  };
  return ops;
}

const OpDef* find_op(std::string_view domain, std::string_view name) {
  if (domain == "ai.onnx") domain = "";
  for (const OpDef* def : all_ops())
    if (def->name == name && def->domain == domain) return def;
  return nullptr;
}

const ir::Attribute* BuildContext::attr(std::string_view name) const {
  const ir::Attribute* a = node.attr(name);
  if (!a || a->ref_attr_name.empty()) return a;
  if (function_attrs_)
    for (const ir::Attribute* bound : *function_attrs_)
      if (bound->name == a->ref_attr_name) return bound;
  return nullptr;
}

int64_t BuildContext::attr_int(std::string_view name, int64_t fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->i : fallback;
}

float BuildContext::attr_float(std::string_view name, float fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->f : fallback;
}

std::string BuildContext::attr_string(std::string_view name, std::string fallback) const {
  const ir::Attribute* a = attr(name);
  return a ? a->s : fallback;
}

std::vector<int64_t> BuildContext::attr_ints(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  return a ? a->ints : std::vector<int64_t>{};
}

const ir::Graph& BuildContext::graph_attr(std::string_view name) const {
  const ir::Attribute* a = attr(name);
  if (!a || a->kind != ir::Attribute::Kind::Graph || !a->g)
    invalid("missing graph attribute '" + std::string(name) + "'");
  return *a->g;
}

void BuildContext::invalid(const std::string& message) const {
  fail(ErrorKind::InvalidModel, where, message);
}

void BuildContext::unsupported(const std::string& message) const {
  fail(ErrorKind::Unsupported, where, message);
}

}  // namespace bough::ops
