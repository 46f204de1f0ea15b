// The checker's rules, one group per file; check_model.cc walks the model and calls them.
#pragma once

#include <map>
#include <string>

#include "check/check.h"
#include "ops/registry.h"

namespace bough::check {

// What a rule sees of one node.
struct NodeSite {
  const ir::Model& model;
  const ir::Node& node;
  int64_t opset;                  // version of the node's domain in force (the function's)
  const std::string& graph_path;  // `main/Loop "l"/body`
  Diagnostics& out;
  const CheckOptions& options;

  // `main/If "gate"`: made only when a rule reports, since deep paths are long.
  std::string place() const { return graph_path + "/" + node.label(); }
};

// operators.cc: opset imports against what bough knows.
void check_opset_imports(const std::map<std::string, int64_t>& imports, const std::string& place,
                         const CheckOptions& options, Diagnostics& out);
// operators.cc: the operator is known (or a model-local function) and its arity fits.
void check_operator(const NodeSite& site);

// names.cc: single static assignment across a graph and every graph nested in it.
void check_names(const ir::Graph& graph, Diagnostics& out);

// if_rules.cc, loop_scan_rules.cc: the control-flow operators against their subgraphs.
void check_if(const NodeSite& site);
void check_loop(const NodeSite& site);
void check_scan(const NodeSite& site);

// variable_rules.cc: OpenVINO's ReadValue and Assign, one pair per variable, in the main graph.
void check_variables(const ir::Model& model, Diagnostics& out);

}  // namespace bough::check
