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
  // Binds each capture to the parent's value by reference: no copy, no reference counting.
  void bind_captures(const exec::KernelIO& io) {
    for (size_t k = 0; k < capture_inputs.size(); ++k)
      plan->bind_capture(k, io.value(static_cast<size_t>(capture_inputs[k])));
  }
  size_t num_inputs() const { return plan->num_inputs(); }
  size_t num_outputs() const { return plan->num_outputs(); }
};

// Reads a condition: a bool tensor with exactly one element, of any rank.
bool read_condition(const Value& v, const char* what);

}  // namespace bough::ops
