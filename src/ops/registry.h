// The operator registry: one OpDef per operator, defined in its own file under
// src/ops/<domain>/ and listed once in src/ops/op_list.inc.
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

// What a kernel factory sees of the node it builds for. The planner's own state (the
// compile environment, the plan being built and this step's input slots) passes through
// untouched, for the control-flow operators in exec/control that compile subgraphs; a
// kernel built on its own (ops/evaluate.h) has none of them.
class BuildContext : public NodeView {
 public:
  BuildContext(const ir::Node& node, int64_t opset, int since, const exec::CompileEnv* env,
               const FunctionAttrs* function_attrs, std::string where,
               const exec::Plan* plan = nullptr, std::span<const int32_t> step_inputs = {})
      : NodeView(node, opset, since, function_attrs, std::move(where)),
        env(env),
        plan_(plan),
        step_inputs_(step_inputs) {}

  const exec::CompileEnv* env;  // null outside a plan

  // The plan being compiled (null when a kernel is built on its own) and its slots for this
  // node's inputs, implicit ones last.
  const exec::Plan* plan() const { return plan_; }
  std::span<const int32_t> step_inputs() const { return step_inputs_; }

 private:
  const exec::Plan* plan_;
  std::span<const int32_t> step_inputs_;
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
};

inline constexpr int kVariadic = 1 << 20;

const OpDef* find_op(std::string_view domain, std::string_view name);
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
