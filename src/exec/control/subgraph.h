// A compiled subgraph of a control-flow node, with where its captures come from.
//
// The operators that hold subgraphs (If, Loop, Scan, SequenceMap, FlexAttention and
// com.microsoft GreedySearch and BeamSearch) run nested Plans, so they sit above the planner, here
// in exec/control, rather than in ops/; they are operators all the same (namespace ops) and are
// listed in ops/op_list.inc like every other.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "exec/plan.h"
#include "kernels/stacker.h"
#include "ops/registry.h"

namespace bough::ops {

struct Body {
  std::unique_ptr<exec::Plan> plan;
  // Captures bound on every call: (capture index, its input position in the node's step).
  // The others have a fixed home and were bound when the plan was compiled.
  std::vector<std::pair<size_t, int32_t>> dynamic_captures;

  // Compiles `graph`, a subgraph of the node `ctx` builds for. A capture whose outer value
  // has a fixed home in the enclosing plan is bound there once; the others are bound on
  // every call.
  static Body compile(const BuildContext& ctx, const ir::Graph& graph);
  // Binds captures to the parent's values by reference: no copy, no reference counting.
  void bind_captures(const KernelIO& io) {
    for (const auto& [k, position] : dynamic_captures)
      plan->bind_capture(k, io.value(static_cast<size_t>(position)));
  }
  // One iteration of a Loop or Scan body. The carried values `state` are read as body
  // inputs first_input.. and computed in place into `next` as body outputs first_output..;
  // the scan outputs that follow them are appended to `stacks`. `after_run(plan)` reads
  // any other output (a Loop's condition) before the outputs are taken. Other inputs must
  // be bound before. Afterwards `state` holds the new values, swapped in, never copied.
  template <typename AfterRun>
  void iterate(KernelIO& io, std::vector<Value>& state, std::vector<Value>& next,
               size_t first_input, size_t first_output, std::vector<kernels::Stacker>& stacks,
               AfterRun&& after_run) {
    exec::Plan& p = *plan;
    for (size_t j = 0; j < state.size(); ++j) {
      p.bind_input(first_input + j, state[j]);
      p.bind_output(first_output + j, next[j]);
    }
    bind_captures(io);
    p.run(io.context());
    try {
      after_run(p);
      for (size_t j = 0; j < state.size(); ++j) p.take_output(first_output + j, next[j]);
      const size_t first_scan = first_output + state.size();
      for (size_t k = 0; k < stacks.size(); ++k) {
        const Value& v = p.output(first_scan + k);
        if (!v.is_tensor()) [[unlikely]]
          fail(ErrorKind::BadInput, "",
               "scan output " + std::to_string(k) + " must be a tensor, got " + describe(v));
        stacks[k].append(v.tensor());
      }
    } catch (...) {
      p.reset();  // its outputs point at next[], which the caller is about to drop
      throw;
    }
    p.reset();
    state.swap(next);
  }
  size_t num_inputs() const { return plan->num_inputs(); }
  size_t num_outputs() const { return plan->num_outputs(); }
};

// What an empty scan output is made of: the element type and item shape a declared type
// gives (unknown dims as 0, float when the element type is not declared).
struct StackItem {
  ElemType elem = ElemType::Float;
  Dims shape;
};
StackItem stack_item(const ir::Type& declared);

[[noreturn, gnu::cold]] void bad_condition(const Value& v, const char* what);

// Reads a condition: a bool tensor with exactly one element, of any rank.
inline bool read_condition(const Value& v, const char* what) {
  if (!v.is_tensor() || v.tensor().type() != ElemType::Bool || v.tensor().numel() != 1) [[unlikely]]
    bad_condition(v, what);
  return v.tensor().data<bool>()[0];
}

}  // namespace bough::ops
