// OpenVINO's ReadValue and Assign (org.openvinotoolkit) as nodes: what the check, the
// ONNX writer's stateless form and the kernels all ask of them.
#pragma once

#include <string>
#include <string_view>

#include "ir/graph.h"

namespace bough::ir {

// The domain OpenVINO's ONNX frontend reads OpenVINO's own operators from.
inline constexpr std::string_view kOpenVinoToolkitDomain = "org.openvinotoolkit";

// Whether `n` is the org.openvinotoolkit operator `op` ("ReadValue" or "Assign").
inline bool is_variable_op(const Node& n, std::string_view op) {
  return n.domain == kOpenVinoToolkitDomain && n.op_type == op;
}

// The variable a ReadValue or Assign names (its string attribute variable_id; "" without).
inline std::string variable_of(const Node& n) {
  const Attribute* a = n.attr("variable_id");
  return a && a->kind == Attribute::Kind::String ? a->s : "";
}

}  // namespace bough::ir
