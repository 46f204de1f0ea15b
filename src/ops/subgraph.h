// A compiled subgraph of a control-flow node, with where its captures come from.
#pragma once

#include <memory>
#include <vector>

#include "exec/plan.h"
#include "ops/registry.h"

namespace bough::ops {

struct Body {
  std::unique_ptr<exec::Plan> plan;
  // Captures bound on every call: (capture index, its input position in the node's step).
  // The others have a fixed home and were bound when the plan was compiled.
  std::vector<std::pair<size_t, int32_t>> dynamic_captures;

  static Body compile(const BuildContext& ctx, const ir::Graph& graph) {
    Body body;
    body.plan = ctx.compile(graph, &body.dynamic_captures);
    return body;
  }
  // Binds captures to the parent's values by reference: no copy, no reference counting.
  void bind_captures(const exec::KernelIO& io) {
    for (const auto& [k, position] : dynamic_captures)
      plan->bind_capture(k, io.value(static_cast<size_t>(position)));
  }
  size_t num_inputs() const { return plan->num_inputs(); }
  size_t num_outputs() const { return plan->num_outputs(); }
};

[[noreturn, gnu::cold]] void bad_condition(const Value& v, const char* what);

// Reads a condition: a bool tensor with exactly one element, of any rank.
inline bool read_condition(const Value& v, const char* what) {
  if (!v.is_tensor() || v.tensor().type() != ElemType::Bool || v.tensor().numel() != 1) [[unlikely]]
    bad_condition(v, what);
  return v.tensor().data<bool>()[0];
}

}  // namespace bough::ops
