// Operators against what bough knows: opset versions, the registry, model-local functions
// and each operator's arity.
#include <string>

#include "check/opsets.h"
#include "check/rules.h"

namespace bough::check {

void check_opset_imports(const std::map<std::string, int64_t>& imports, const std::string& place,
                         const CheckOptions& options, Diagnostics& out) {
  for (const auto& [domain, version] : imports) {
    int64_t newest = newest_opset(domain);
    if (newest == 0 || version <= newest) continue;  // 0: a domain of functions, say
    std::string name = domain.empty() ? "ai.onnx" : domain;
    std::string message = "imports opset " + name + " " + std::to_string(version) +
                          ", newer than bough supports (" + std::to_string(newest) + ")";
    if (options.allow_newer_opset) {
      out.warning(place, message + "; its operators are read as version " + std::to_string(newest) +
                             " defines them");
    } else {
      out.unsupported(
          place, message + " (allowing newer opsets, --allow-newer-opset, makes this a warning)");
    }
  }
}

namespace {

bool is_local_function(const ir::Model& model, const ir::Node& n) {
  for (const auto& fn : model.functions)
    if (fn->name == n.op_type && fn->domain == n.domain && fn->overload == n.overload) return true;
  return false;
}

std::string count_range(int lo, int hi) {
  if (hi == lo) return std::to_string(lo);
  if (hi >= ops::kVariadic) return std::to_string(lo) + " or more";
  return std::to_string(lo) + " to " + std::to_string(hi);
}

// If, Loop and Scan count their inputs with rules of their own that say more
// (if_rules.cc, loop_scan_rules.cc).
bool counts_inputs_itself(const ir::Node& n) {
  return n.domain.empty() && (n.op_type == "If" || n.op_type == "Loop" || n.op_type == "Scan");
}

}  // namespace

void check_operator(const NodeSite& site) {
  const ir::Node& n = site.node;
  if (is_local_function(site.model, n)) return;
  std::string op = (n.domain.empty() ? "" : n.domain + ".") + n.op_type;
  const ops::OpDef* def = ops::find_op(n.domain, n.op_type);
  if (!def && is_spec_operator_not_implemented(n.domain, n.op_type)) {
    site.out.warning(site.place(), "bough does not implement " + op +
                                       " yet: this node is not checked, and the model cannot run");
    return;
  }
  if (!def) {
    site.out.unsupported(site.place(),
                         "unknown operator " + op +
                             ": neither an operator bough implements nor a function of the model");
    return;
  }
  if (is_runtime_operator_in_default_domain(n.domain, n.op_type))
    site.out.warning(site.place(), op + " is not an ONNX operator but ONNX Runtime's, which it "
                                        "registers in the default domain: bough runs it as ONNX "
                                        "Runtime defines it; ONNX's checker refuses it");
  auto n_in = static_cast<int>(n.inputs.size());
  auto n_out = static_cast<int>(n.outputs.size());
  if (!counts_inputs_itself(n) && (n_in < def->min_inputs || n_in > def->max_inputs))
    site.out.error(site.place(), op + " has " + std::to_string(n_in) + " inputs, expected " +
                                     count_range(def->min_inputs, def->max_inputs));
  if (n_out < def->min_outputs || n_out > def->max_outputs)
    site.out.error(site.place(), op + " has " + std::to_string(n_out) + " outputs, expected " +
                                     count_range(def->min_outputs, def->max_outputs));
}

}  // namespace bough::check
