#include "ops/registry.h"

#include <algorithm>

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
  if (env.attrs)
    for (const ir::Attribute* bound : *env.attrs)
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

std::unique_ptr<exec::Plan> BuildContext::compile(
    const ir::Graph& graph, std::vector<std::pair<size_t, int32_t>>* dynamic) const {
  std::vector<const Value*> homes;
  const auto& implicit = node.implicit_inputs;
  for (size_t k = 0; k < graph.captures.size(); ++k) {
    auto it = std::find(implicit.begin(), implicit.end(), graph.captures[k]->outer);
    auto position = static_cast<int32_t>(node.inputs.size() + static_cast<size_t>(it - implicit.begin()));
    const Value* home = nullptr;
    if (plan_ && static_cast<size_t>(position) < step_inputs_.size())
      home = plan_->fixed_slot(step_inputs_[static_cast<size_t>(position)]);
    homes.push_back(home);
    if (!home) dynamic->emplace_back(k, position);
  }
  exec::CompileEnv inner = env;
  inner.capture_addresses = &homes;
  return exec::Plan::compile(graph, inner);
}

void BuildContext::invalid(const std::string& message) const {
  fail(ErrorKind::InvalidModel, where, message);
}

void BuildContext::unsupported(const std::string& message) const {
  fail(ErrorKind::Unsupported, where, message);
}

}  // namespace bough::ops
