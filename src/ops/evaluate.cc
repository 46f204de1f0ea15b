#include "ops/evaluate.h"

#include <string_view>

#include "util/thread_pool.h"

namespace bough::ops {

bool is_random_op(std::string_view domain, std::string_view name) {
  const OpDef* def = find_op(domain == "ai.onnx" ? "" : domain, name);
  return def && def->nondeterministic;
}

bool evaluable(const OpDef& def) {
  if (!def.domain.empty() || def.nondeterministic) return false;
  // Subgraphs need a plan; Dropout draws its mask in training mode.
  static constexpr std::string_view kNot[] = {"If", "Loop", "Scan", "SequenceMap", "Dropout"};
  for (std::string_view name : kNot)
    if (def.name == name) return false;
  return true;
}

std::vector<Value> evaluate(const OpDef& def, const NodeView& view, std::span<const Value> inputs) {
  BuildContext build(view.node, view.opset, view.since, nullptr, view.function_attrs(), view.where);
  std::unique_ptr<Kernel> kernel = def.make(build);
  size_t n_in = view.node.inputs.size();
  size_t n_out = view.node.outputs.size();
  std::vector<Value> slots(n_in + n_out);
  std::vector<Value*> slot_ptrs(slots.size());
  std::vector<int32_t> in(n_in), out(n_out);
  for (size_t i = 0; i < slots.size(); ++i) slot_ptrs[i] = &slots[i];
  for (size_t i = 0; i < n_in; ++i) {
    bool given = view.node.inputs[i] && i < inputs.size();
    if (given) slots[i] = inputs[i];
    in[i] = given ? static_cast<int32_t>(i) : -1;
  }
  for (size_t i = 0; i < n_out; ++i)
    out[i] = view.node.outputs[i] ? static_cast<int32_t>(n_in + i) : -1;
  static thread_local util::ThreadPool pool(1);
  RunContext run{&pool};
  KernelIO io(run, slot_ptrs.data(), in, out);
  kernel->run(io);
  return {std::make_move_iterator(slots.begin() + static_cast<std::ptrdiff_t>(n_in)),
          std::make_move_iterator(slots.end())};
}

}  // namespace bough::ops
