// What an operator sees of its node, both when its kernel is built and when its output
// types are inferred: the node, the version in force and its attributes, looked up through
// ref_attr_name inside model-local function bodies.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace bough::ops {

using FunctionAttrs = std::vector<const ir::Attribute*>;

class NodeView {
 public:
  NodeView(const ir::Node& node, int64_t opset, int since, const FunctionAttrs* function_attrs,
           std::string where)
      : node(node),
        opset(opset),
        since(since),
        where(std::move(where)),
        function_attrs_(function_attrs) {}

  const ir::Node& node;
  int64_t opset;  // version of the node's domain imported by the model
  int since;      // since_version of the schema row in force
  std::string where;

  // Attribute lookup, following ref_attr_name inside function bodies; null when absent.
  const ir::Attribute* attr(std::string_view name) const;
  int64_t attr_int(std::string_view name, int64_t fallback) const;
  float attr_float(std::string_view name, float fallback) const;
  std::string attr_string(std::string_view name, std::string fallback) const;
  std::vector<int64_t> attr_ints(std::string_view name) const;
  bool has_attr(std::string_view name) const { return attr(name) != nullptr; }
  const ir::Graph& graph_attr(std::string_view name) const;
  // The attribute values of the function call whose body holds this node (null outside).
  const FunctionAttrs* function_attrs() const { return function_attrs_; }
  [[noreturn]] void invalid(const std::string& message) const;
  // Static shapes say this node fails when it runs (dims that do not broadcast, a Reshape to
  // another element count). The model is still well formed: inference reports it as an
  // error only where the node is sure to run, and as a warning inside a branch or body.
  [[noreturn]] void fails_when_run(const std::string& message) const;
  [[noreturn]] void unsupported(const std::string& message) const;

 private:
  const FunctionAttrs* function_attrs_;
};

}  // namespace bough::ops
