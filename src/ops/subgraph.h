// A compiled subgraph of a control-flow node, with where its captures come from.
#pragma once

#include <memory>
#include <vector>

#include "exec/plan.h"
#include "ops/registry.h"

namespace bough::ops {

struct Body {
  std::unique_ptr<exec::Plan> plan;
  std::vector<int32_t> capture_inputs;  // per capture: its input position in the node's step

  static Body compile(const BuildContext& ctx, const ir::Graph& graph) {
    return Body{ctx.compile(graph), ctx.capture_positions(graph)};
  }
  // Binds each capture to the parent's value by reference (the buffer is shared).
  void bind_captures(const exec::KernelIO& io) {
    const auto& slots = plan->capture_slots();
    for (size_t k = 0; k < slots.size(); ++k)
      plan->slot(slots[k]) = io.value(static_cast<size_t>(capture_inputs[k]));
  }
  size_t num_inputs() const { return plan->input_slots().size(); }
  size_t num_outputs() const { return plan->output_slots().size(); }
  Value& input(size_t i) { return plan->slot(plan->input_slots()[i]); }
};

// Reads a condition: a bool tensor with exactly one element, of any rank.
bool read_condition(const Value& v, const char* what);

}  // namespace bough::ops
