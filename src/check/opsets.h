// The newest opset version bough knows for each operator domain. An OpDef's last row is the
// last version that changed that operator, not the newest opset: a model importing ai.onnx
// 28 is fine though no operator has a row 28. Raise these when the operators of a new
// opset are in (the conformance suite goes up to ai.onnx 28).
#pragma once

#include <cstdint>
#include <string_view>

namespace bough::check {

struct DomainOpset {
  std::string_view domain;
  int64_t newest;
};

inline constexpr DomainOpset kNewestOpsets[] = {
    {"", 28},
    {"ai.onnx.ml", 5},
    {"ai.onnx.preview", 1},
    {"ai.onnx.preview.training", 1},
    {"com.microsoft", 1},        // ONNX Runtime's contrib operators (ops/microsoft/)
    {"org.openvinotoolkit", 1},  // OpenVINO's operators with no ONNX form (ops/openvino/)
};

// The newest version bough knows for `domain` ("" and "ai.onnx" alike), 0 for a domain it
// has no operators in (a domain of model-local functions, say).
inline int64_t newest_opset(std::string_view domain) {
  if (domain == "ai.onnx") domain = "";
  for (const auto& d : kNewestOpsets)
    if (d.domain == domain) return d.newest;
  return 0;
}

// Operators of the ONNX specification that bough does not implement yet. A model using one
// may well be valid: `bough check` says it cannot check that node (a warning) rather than
// calling the model invalid; running it is refused as unsupported.
struct SpecOperator {
  std::string_view domain;
  std::string_view name;
};

inline constexpr SpecOperator kNotImplemented[] = {
    {"ai.onnx.preview.training", "Gradient"},
};

// Operators outside the ONNX spec that ONNX Runtime registers in the default domain, where
// its transformer tools write them; bough runs them as ONNX Runtime defines them, and the
// check warns that ONNX's own checker refuses them.
inline constexpr std::string_view kRuntimeOperatorsInDefaultDomain[] = {
    "SimplifiedLayerNormalization",
};

inline bool is_runtime_operator_in_default_domain(std::string_view domain, std::string_view name) {
  if (!domain.empty() && domain != "ai.onnx") return false;
  for (std::string_view op : kRuntimeOperatorsInDefaultDomain)
    if (op == name) return true;
  return false;
}

inline bool is_spec_operator_not_implemented(std::string_view domain, std::string_view name) {
  if (domain == "ai.onnx") domain = "";
  for (const auto& op : kNotImplemented)
    if (op.domain == domain && op.name == name) return true;
  return false;
}

}  // namespace bough::check
