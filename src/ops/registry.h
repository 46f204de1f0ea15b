// The operator registry: one OpDef per operator, defined in its own file under
// src/ops/<domain>/ and listed once in src/ops/op_list.inc.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/graph.h"
#include "ops/kernel.h"

namespace bough::exec {
struct CompileEnv;
class Plan;
}  // namespace bough::exec

namespace bough::ops {

// What a kernel factory sees of the node it builds for. The planner's own state (the
// compile environment, the plan being built and this step's input slots) passes through
// untouched, for the control-flow operators in exec/control that compile subgraphs.
class BuildContext {
 public:
  BuildContext(const ir::Node& node, int64_t opset, int since, const exec::CompileEnv& env,
               const std::vector<const ir::Attribute*>* function_attrs, std::string where,
               const exec::Plan* plan = nullptr, std::span<const int32_t> step_inputs = {})
      : node(node),
        opset(opset),
        since(since),
        env(env),
        where(std::move(where)),
        function_attrs_(function_attrs),
        plan_(plan),
        step_inputs_(step_inputs) {}

  const ir::Node& node;
  int64_t opset;  // version of the node's domain imported by the model
  int since;      // since_version of the schema row in force
  const exec::CompileEnv& env;
  std::string where;

  // Attribute lookup, following ref_attr_name inside function bodies; null when absent.
  const ir::Attribute* attr(std::string_view name) const;
  int64_t attr_int(std::string_view name, int64_t fallback) const;
  float attr_float(std::string_view name, float fallback) const;
  std::string attr_string(std::string_view name, std::string fallback) const;
  std::vector<int64_t> attr_ints(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  const ir::Graph& graph_attr(std::string_view name) const;
  [[noreturn]] void invalid(const std::string& message) const;
  [[noreturn]] void unsupported(const std::string& message) const;

  // The plan being compiled (null when a kernel is built on its own) and its slots for this
  // node's inputs, implicit ones last.
  const exec::Plan* plan() const { return plan_; }
  std::span<const int32_t> step_inputs() const { return step_inputs_; }

 private:
  const std::vector<const ir::Attribute*>* function_attrs_;  // inside a function body
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
};

inline constexpr int kVariadic = 1 << 20;

const OpDef* find_op(std::string_view domain, std::string_view name);
const std::vector<const OpDef*>& all_ops();

}  // namespace bough::ops
