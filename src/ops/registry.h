// The operator registry: one OpDef per operator, defined in its own file under
// src/ops/<domain>/ and listed once in src/ops/op_list.inc, or defined above ops/ and
// registered by its layer (register_ops).
#pragma once

#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ops/kernel.h"
#include "ops/node_view.h"
#include "ops/schema.h"

namespace bough::exec {
struct CompileEnv;
class Plan;
}  // namespace bough::exec

namespace bough::ops {

// What the planner knows of a step's inputs that holds for the plan's whole lifetime.
struct StepConstants {
  // Per input (implicit inputs last): its value when it is the same for every run of the
  // plan (an initializer, a Constant's output, a value the session's passes folded, or an
  // outer constant a subgraph captures), else null.
  std::span<const Value* const> values;
  // Counts the weights kernels prepared from them (BuildContext::count_prepared); null
  // when nobody counts.
  size_t* prepared = nullptr;
};

// What a kernel factory sees of the node it builds for. The planner's own state (the
// compile environment, the plan being built and this step's input slots) passes through
// untouched, for the control-flow operators in exec/control that compile subgraphs; a
// kernel built on its own (ops/evaluate.h) has none of them.
class BuildContext : public NodeView {
 public:
  BuildContext(const ir::Node& node, int64_t opset, int since, const exec::CompileEnv* env,
               const FunctionAttrs* function_attrs, std::string where,
               const exec::Plan* plan = nullptr, std::span<const int32_t> step_inputs = {},
               StepConstants constants = {})
      : NodeView(node, opset, since, function_attrs, std::move(where)),
        env(env),
        plan_(plan),
        step_inputs_(step_inputs),
        constants_(constants) {}

  const exec::CompileEnv* env;  // null outside a plan

  // The plan being compiled (null when a kernel is built on its own) and its slots for this
  // node's inputs, implicit ones last.
  const exec::Plan* plan() const { return plan_; }
  std::span<const int32_t> step_inputs() const { return step_inputs_; }

  // Input i when it is a tensor that stays the same for the plan's lifetime (see
  // StepConstants), else null (not constant, omitted, or not a tensor). A kernel may
  // prepare a form of it once here (a transposed weight, say) and use that on every run;
  // the tensor itself outlives the kernel, but a kernel that prepares keeps no pointer to it.
  const Tensor* constant_input(size_t i) const {
    if (i >= constants_.values.size() || !constants_.values[i]) return nullptr;
    const Value& v = *constants_.values[i];
    return v.is_tensor() ? &v.tensor() : nullptr;
  }
  // Reports `n` weights prepared from constant inputs, for Plan::prepared_weights.
  void count_prepared(size_t n = 1) const {
    if (constants_.prepared) *constants_.prepared += n;
  }

 private:
  const exec::Plan* plan_;
  std::span<const int32_t> step_inputs_;
  StepConstants constants_;
};

using KernelFactory = std::unique_ptr<Kernel> (*)(const BuildContext&);

struct OpDef {
  std::string_view domain;  // "" for ai.onnx
  std::string_view name;
  std::vector<int> versions;  // since_version of each schema row, ascending
  int min_inputs, max_inputs;
  int min_outputs, max_outputs;
  KernelFactory make;
  // Output types from input types and attributes (ops/schema.h); null: only what the
  // signature implies.
  InferFn infer = nullptr;
  // The signature of each schema row, ascending (schema.h); one per entry of `versions`.
  std::vector<SignatureText> signatures = {};
  // Draws random numbers: each run may give other values, so its outputs are never known
  // before running (constant folding and loop-invariant hoisting leave it alone).
  bool nondeterministic = false;
};

inline constexpr int kVariadic = 1 << 20;

const OpDef* find_op(std::string_view domain, std::string_view name);
// Adds operators defined in a layer above ops/ (the control-flow ones of exec/control, see
// exec/operators.h) to what find_op and all_ops know; one already known is left as it was.
// The caller keeps `defs` for the life of the process. Safe while other threads look
// operators up.
void register_ops(std::span<const OpDef> defs);
// The version of the node's domain in force: inside a model-local function body the
// function's own imports come first (`function_opsets`, null outside), as when it runs.
int64_t node_opset(const ir::Model* model, const std::map<std::string, int64_t>* function_opsets,
                   const ir::Node& node);
// The since_version of the schema row of `def` in force at `opset` (the first row when the
// opset is older than all of them, as the planner does).
int since_of(const OpDef& def, int64_t opset);
// The signature of the schema row `since`; null when none is written for that row yet
// (then nothing is checked against it).
const Signature* signature_at(const OpDef& def, int since);
const std::vector<const OpDef*>& all_ops();

}  // namespace bough::ops
