#include "exec/control/subgraph.h"

#include <algorithm>

#include "ops/constant_use.h"

namespace bough::ops {

Body Body::compile(const BuildContext& ctx, const ir::Graph& graph) {
  Body body;
  std::vector<const Value*> homes;
  std::vector<uint8_t> constants;  // per capture: its outer value is constant
  std::vector<int32_t> positions;  // per capture: its input position in the node's step
  const auto& implicit = ctx.node.implicit_inputs;
  const std::span<const int32_t> step_inputs = ctx.step_inputs();
  for (size_t k = 0; k < graph.captures.size(); ++k) {
    auto it = std::find(implicit.begin(), implicit.end(), graph.captures[k]->outer);
    auto position =
        static_cast<int32_t>(ctx.node.inputs.size() + static_cast<size_t>(it - implicit.begin()));
    const Value* home = nullptr;
    bool constant = false;
    if (ctx.plan() && static_cast<size_t>(position) < step_inputs.size()) {
      home = ctx.plan()->fixed_slot(step_inputs[static_cast<size_t>(position)]);
      constant = ctx.plan()->constant_slot(step_inputs[static_cast<size_t>(position)]);
    }
    homes.push_back(home);
    positions.push_back(position);
    constants.push_back(home && constant ? 1 : 0);
    if (!home) body.dynamic_captures.emplace_back(k, position);
  }
  if (!ctx.env) ctx.invalid("a subgraph can only be compiled inside a plan");
  exec::CompileEnv inner = *ctx.env;
  inner.capture_addresses = &homes;
  inner.capture_constants = &constants;
  body.plan = exec::Plan::compile(graph, inner);
  // The outer constant may be dropped only if this body, and every other part of the node,
  // keeps a prepared form of it.
  for (size_t k = 0; k < graph.captures.size(); ++k) {
    if (!constants[k]) continue;
    const auto position = static_cast<size_t>(positions[k]);
    if (body.plan->capture_consumed(k))
      consume_constant_input(ctx, position);
    else
      keep_constant_input(ctx, position);
  }
  return body;
}

StackItem stack_item(const ir::Type& declared) {
  StackItem item;
  if (declared.kind != ir::Type::Kind::Tensor) return item;
  if (declared.elem != ElemType::Undefined) item.elem = declared.elem;
  if (declared.shape.rank_known)
    for (const auto& d : declared.shape.dims) item.shape.push_back(d.is_known() ? d.value : 0);
  return item;
}

}  // namespace bough::ops
