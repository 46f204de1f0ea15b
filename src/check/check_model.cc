// Walks the model — main graph, nested subgraphs, model-local functions — and applies the
// rules of rules.h to each node.
#include "check/check.h"
#include "check/rules.h"

namespace bough::check {

namespace {

using Opsets = std::map<std::string, int64_t>;

Opsets model_opsets(const ir::Model& model) {
  Opsets m;
  for (const auto& [domain, version] : model.opset_imports)
    m[domain == "ai.onnx" ? "" : domain] = version;
  return m;
}

class Walker {
 public:
  Walker(const ir::Model& model, const Opsets* function_opsets, const CheckOptions& options,
         Diagnostics& out)
      : model_(model), function_opsets_(function_opsets), options_(options), out_(out) {}

  void graph(const ir::Graph& g) {
    const std::string path = g.path();
    if (g.early_read) order(*g.early_read, path);
    for (const auto& n : g.nodes) {
      NodeSite site{model_, *n, opset(*n), path, out_, options_};
      check_operator(site);
      if (n->domain.empty() && n->op_type == "If") check_if(site);
      if (n->domain.empty() && n->op_type == "Loop") check_loop(site);
      if (n->domain.empty() && n->op_type == "Scan") check_scan(site);
      for (const auto& a : n->attributes) {
        if (a.g) graph(*a.g);
        for (const auto& sub : a.graphs) graph(*sub);
      }
    }
  }

 private:
  int64_t opset(const ir::Node& n) const { return ops::node_opset(&model_, function_opsets_, n); }

  void order(const ir::Graph::EarlyRead& early, const std::string& path) {
    const std::string message = "comes before " + early.maker + ", which makes '" + early.value +
                                "' that it reads: ONNX requires the nodes of a graph in "
                                "topological order";
    const std::string place = path + "/" + early.reader;
    if (options_.unsorted_nodes_are_errors)
      out_.error(place, message);
    else
      out_.warning(place, message + " (bough runs them sorted)");
  }

  const ir::Model& model_;
  const Opsets* function_opsets_;
  const CheckOptions& options_;
  Diagnostics& out_;
};

// The ONNX IR requires a model to import the opsets it uses: with none, or with ai.onnx at
// a version below 1, no operator has a version to be read at.
void check_imports_exist(const ir::Model& model, Diagnostics& out) {
  if (model.opset_imports.empty())
    out.error("", "the model imports no opset (opset_import is empty; ONNX requires one)");
  for (const auto& [domain, version] : model.opset_imports)
    if (version < 1 && (domain.empty() || domain == "ai.onnx"))
      out.error("", "the model imports ai.onnx at version " + std::to_string(version) +
                        "; opset versions start at 1");
}

}  // namespace

Diagnostics check_model(const ir::Model& model, const CheckOptions& options) {
  Diagnostics out;
  check_imports_exist(model, out);
  check_opset_imports(model_opsets(model), "", options, out);
  for (const auto& fn : model.functions)
    check_opset_imports(fn->opset_imports, fn->body->path(), options, out);
  check_names(*model.graph, out);
  Walker(model, nullptr, options, out).graph(*model.graph);
  check_variables(model, out);
  for (const auto& fn : model.functions) {
    check_names(*fn->body, out);
    Walker(model, &fn->opset_imports, options, out).graph(*fn->body);
  }
  return out;
}

}  // namespace bough::check
