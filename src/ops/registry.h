// The operator registry: one OpDef per operator, defined in its own file under
// src/ops/<domain>/ and listed once in src/ops/op_list.inc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "exec/kernel.h"
#include "exec/plan.h"
#include "ir/graph.h"

namespace bough::ops {

// What a kernel factory sees of the node it builds for.
class BuildContext {
 public:
  BuildContext(const ir::Node& node, int64_t opset, int since, const exec::CompileEnv& env,
               std::string where)
      : node(node), opset(opset), since(since), env(env), where(std::move(where)) {}

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
  std::unique_ptr<exec::Plan> compile(const ir::Graph& graph) const {
    return exec::Plan::compile(graph, env);
  }
  // For each capture of `graph`, its position among the node's inputs as the step sees
  // them (declared inputs first, then implicit inputs).
  std::vector<int32_t> capture_positions(const ir::Graph& graph) const;
  [[noreturn]] void invalid(const std::string& message) const;
  [[noreturn]] void unsupported(const std::string& message) const;
};

using KernelFactory = std::unique_ptr<exec::Kernel> (*)(const BuildContext&);

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
