#include "infer/infer.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/control_flow_rules.h"
#include "infer/signature_check.h"
#include "ops/evaluate.h"
#include "ops/registry.h"

namespace bough::infer {

namespace {

using K = ir::Type::Kind;
using Opsets = std::map<std::string, int64_t>;

// Values propagated before running stay small: shape computations, not weights.
constexpr int64_t kMaxPropagatedElements = 4096;

// The inferred type, with what a declaration adds where inference knows less.
ir::Type refine(const ir::Type& inferred, const ir::Type& declared) {
  if (!inferred.defined()) return declared;
  if (!declared.defined() || declared.kind != inferred.kind) return inferred;
  ir::Type t = inferred;
  if (t.elem == ElemType::Undefined) t.elem = declared.elem;
  if (t.kind == K::Tensor) {
    const ir::Shape& d = declared.shape;
    if (!t.shape.rank_known && !t.shape.rank_varies) {
      t.shape = d;
    } else if (d.rank_known && d.dims.size() == t.shape.dims.size()) {
      for (size_t k = 0; k < d.dims.size(); ++k)
        if (!t.shape.dims[k].is_known() && d.dims[k].kind != ir::Dim::Kind::Unknown)
          t.shape.dims[k] = d.dims[k];
    }
  } else if (t.inner && declared.inner) {
    t.inner = std::make_shared<const ir::Type>(refine(*t.inner, *declared.inner));
  } else if (!t.inner) {
    t.inner = declared.inner;
  }
  return t;
}

int64_t static_numel(const ir::Type& t) {
  if (t.kind != K::Tensor || !t.shape.rank_known) return -1;
  int64_t n = 1;
  for (const ir::Dim& d : t.shape.dims) {
    if (!d.is_known() || d.value < 0) return -1;
    n *= d.value;
    if (n > kMaxPropagatedElements) return -1;
  }
  return n;
}

const ir::Function* local_function(const ir::Model& model, const ir::Node& n) {
  for (const auto& fn : model.functions)
    if (fn->name == n.op_type && fn->domain == n.domain && fn->overload == n.overload)
      return fn.get();
  return nullptr;
}

}  // namespace

const ir::Type& Inferred::type_of(const ir::Edge* e) const {
  static const ir::Type kUnknown;
  auto it = types_.find(e);
  return it != types_.end() ? it->second : (e ? e->type : kUnknown);
}

const Tensor* Inferred::value_of(const ir::Edge* e) const {
  auto it = values_.find(e);
  return it != values_.end() ? &it->second : nullptr;
}

class Walker {
 public:
  Walker(const ir::Model& model, Inferred& result, check::Diagnostics& out,
         const InferOptions& options)
      : model_(model), result_(result), out_(out), options_(options) {}

  // Infers `g`; `formals` are the types its inputs receive (a subgraph's), null for the main
  // graph and function bodies called from nowhere.
  void graph(const ir::Graph& g, const std::vector<ir::Type>* formals, const Opsets* fn_opsets,
             const ops::FunctionAttrs* fn_attrs) {
    std::string path = g.path();
    for (size_t i = 0; i < g.inputs.size(); ++i) {
      const ir::Edge* e = g.inputs[i];
      ir::Type given = formals && i < formals->size() ? (*formals)[i] : ir::Type{};
      if (e->has_value_info && !check::kinds_agree(e->type, given))
        out_.error(path, "input '" + e->name + "' is declared " + ir::to_string(e->type) +
                             ", but receives " + ir::to_string(given));
      result_.types_[e] = refine(given, e->type);
    }
    // A graph input with a default value is not constant: the caller may give another.
    for (const ir::Edge* e : g.initializers)
      if (e->data && e->origin == ir::Edge::Origin::Initializer) set_value(e, *e->data);
    for (const ir::Edge* c : g.captures) {
      result_.types_[c] = refine(result_.type_of(c->outer), c->type);
      if (const Tensor* v = result_.value_of(c->outer)) result_.values_[c] = *v;
    }
    for (const auto& n : g.nodes) node(path, *n, fn_opsets, fn_attrs);
  }

  // Infers the node `n` alone, its input types already in the result.
  void lone_node(const ir::Node& n) { node(n.graph ? n.graph->path() : "", n, nullptr, nullptr); }

  std::vector<ir::Type> outputs_of(const ir::Graph& g) const {
    std::vector<ir::Type> types;
    types.reserve(g.outputs.size());
    for (const ir::Edge* e : g.outputs) types.push_back(result_.type_of(e));
    return types;
  }

 private:
  class NodeInference;

  void node(const std::string& path, const ir::Node& n, const Opsets* fn_opsets,
            const ops::FunctionAttrs* fn_attrs);
  void propagate(const ops::OpDef& def, const ops::NodeView& view, NodeInference& ctx,
                 const std::vector<const Tensor*>& values);

  std::vector<ir::Type> function_call(const ir::Function& fn, const ir::Node& n,
                                      const std::vector<ir::Type>& types,
                                      const std::function<std::string()>& place) {
    if (!active_functions_.insert(&fn).second) {
      out_.error(place(), "function " + fn.name + " calls itself");
      return std::vector<ir::Type>(n.outputs.size());
    }
    // The caller's attributes first, then the function's defaults, as when it runs.
    ops::FunctionAttrs attrs;
    for (const auto& a : n.attributes) attrs.push_back(&a);
    for (const auto& a : fn.attribute_defaults) attrs.push_back(&a);
    graph(*fn.body, &types, &fn.opset_imports, &attrs);
    active_functions_.erase(&fn);
    std::vector<ir::Type> outs = outputs_of(*fn.body);
    outs.resize(n.outputs.size());
    return outs;
  }

  void shape_conflict(const std::string& place, const std::string& message) {
    if (options_.shape_conflicts_are_errors)
      out_.error(place, message);
    else
      out_.warning(place, message + "; it runs by the shapes it meets");
  }

  void set_value(const ir::Edge* e, Tensor value) {
    std::vector<ir::Dim> dims;
    for (size_t k = 0; k < value.rank(); ++k) dims.push_back(ir::Dim::known(value.dim(k)));
    result_.types_[e] = ir::Type::tensor(value.type(), ir::Shape::of(std::move(dims)));
    if (value.numel() <= kMaxPropagatedElements || e->origin == ir::Edge::Origin::Initializer)
      result_.values_[e] = std::move(value);
  }

  // Types outside the node's schema row: errors, or warnings when running and the newest row
  // of the operator allows them (`newest_allows`).
  template <typename Place>
  void type_problems(std::vector<std::string> found, bool newest_allows, const Place& place,
                     std::vector<std::string>& errors) {
    for (std::string& p : found) {
      if (newest_allows && !options_.old_type_lists_are_errors)
        out_.warning(place(), p + "; a newer version allows it, and it runs");
      else
        errors.push_back(std::move(p));
    }
  }

  void report(const std::string& place, const Error& e) {
    if (e.kind() == ErrorKind::Unsupported)
      out_.unsupported(place, e.message());
    else if (e.kind() == ErrorKind::BadInput && subgraph_depth_ > 0)
      // A branch may never be taken and a body may run no times: exporters leave branches
      // that only work for other input shapes, and other engines run such models.
      out_.warning(place, e.message() + "; it fails if this subgraph runs");
    else
      out_.error(place, e.message());
  }

  const ir::Model& model_;
  Inferred& result_;
  check::Diagnostics& out_;
  const InferOptions& options_;
  std::set<const ir::Function*> active_functions_;
  int subgraph_depth_ = 0;  // If branches, Loop and Scan bodies being inferred around us
};

class Walker::NodeInference final : public ops::InferContext {
 public:
  NodeInference(Walker& walker, const ops::NodeView& view, std::span<const ir::Type> types,
                std::span<const Tensor* const> values, size_t num_outputs, const Opsets* fn_opsets)
      : InferContext(view, types, values, num_outputs), walker_(walker), fn_opsets_(fn_opsets) {}

  std::vector<ir::Type> infer_subgraph(const ir::Graph& graph,
                                       const std::vector<ir::Type>& inputs) override {
    ++walker_.subgraph_depth_;
    walker_.graph(graph, &inputs, fn_opsets_, function_attrs());
    --walker_.subgraph_depth_;
    return walker_.outputs_of(graph);
  }
  void error(const std::string& message) override {
    walker_.out_.error(node.graph->path() + "/" + node.label(), message);
  }
  void shape_conflict(const std::string& message) override {
    walker_.shape_conflict(node.graph->path() + "/" + node.label(), message);
  }

 private:
  Walker& walker_;
  const Opsets* fn_opsets_;
};

void Walker::node(const std::string& path, const ir::Node& n, const Opsets* fn_opsets,
                  const ops::FunctionAttrs* fn_attrs) {
  auto place = [&] { return path + "/" + n.label(); };
  std::vector<ir::Type> types(n.inputs.size());
  std::vector<const Tensor*> values(n.inputs.size());
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (!n.inputs[i]) continue;
    types[i] = result_.type_of(n.inputs[i]);
    values[i] = result_.value_of(n.inputs[i]);
  }
  std::vector<ir::Type> outs(n.outputs.size());
  std::vector<std::optional<Tensor>> out_values(n.outputs.size());
  if (const ir::Function* fn = local_function(model_, n)) {
    outs = function_call(*fn, n, types, place);
  } else if (const ops::OpDef* def = ops::find_op(n.domain, n.op_type)) {
    int64_t opset = ops::node_opset(&model_, fn_opsets, n);
    ops::NodeView view(n, opset, ops::since_of(*def, opset), fn_attrs, "");
    const ops::Signature* sig = ops::signature_at(*def, view.since);
    const ops::Signature* newest = ops::signature_at(*def, def->versions.back());
    std::vector<std::string> problems;
    if (sig) {
      problems = check_attributes(*sig, view);
      type_problems(check_inputs(*sig, types), newest && check_inputs(*newest, types).empty(),
                    place, problems);
    }
    for (const std::string& p : problems) out_.error(place(), p);
    if (!problems.empty()) return;
    NodeInference ctx(*this, view, types, values, n.outputs.size(), fn_opsets);
    try {
      if (def->infer) def->infer(ctx);
    } catch (const Error& e) {
      report(place(), e);
    }
    propagate(*def, view, ctx, values);
    outs = std::move(ctx.output_types());
    out_values = std::move(ctx.output_values());
    if (sig) {
      std::vector<std::string> errors;
      type_problems(check_outputs(*sig, outs), newest && check_outputs(*newest, outs).empty(),
                    place, errors);
      for (const std::string& p : errors) out_.error(place(), p);
      outputs_from_signature(*sig, types, outs);
    }
  }
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    const ir::Edge* e = n.outputs[o];
    if (!e) continue;
    if (e->has_value_info && !check::compatible(e->type, outs[o])) {
      std::string message = "output " + std::to_string(o) + " ('" + e->name + "') is declared " +
                            ir::to_string(e->type) + ", but the node yields " +
                            ir::to_string(outs[o]);
      if (check::kinds_agree(e->type, outs[o]) && !options_.shape_conflicts_are_errors)
        out_.warning(place(), message + "; it runs by the shapes it meets");
      else
        out_.error(place(), message);
    }
    if (out_values[o])
      set_value(e, std::move(*out_values[o]));
    else
      result_.types_[e] = options_.refine_with_declarations ? refine(outs[o], e->type) : outs[o];
  }
}

// A node whose inputs are all known and small is run now, so that the values it feeds
// (a Reshape's shape, say) are known too. A failure here is left for the run to report:
// the node may sit in a branch that never runs.
void Walker::propagate(const ops::OpDef& def, const ops::NodeView& view, NodeInference& ctx,
                       const std::vector<const Tensor*>& values) {
  if (view.node.inputs.empty() || !ops::evaluable(def)) return;
  for (const auto& v : ctx.output_values())
    if (v) return;  // the inference function knew the values
  std::vector<Value> inputs(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (!view.node.inputs[i]) continue;
    if (!values[i] || values[i]->numel() > kMaxPropagatedElements) return;
    inputs[i] = *values[i];
  }
  for (size_t o = 0; o < ctx.num_outputs(); ++o)
    if (view.node.outputs[o] && static_numel(ctx.output_type(o)) < 0) return;
  try {
    std::vector<Value> outs = ops::evaluate(def, view, inputs);
    for (size_t o = 0; o < outs.size(); ++o)
      if (outs[o].is_tensor()) ctx.set_output_value(o, outs[o].tensor());
  } catch (const Error&) {
  }
}

namespace {

void annotate_graph(ir::Graph& g, const Inferred& types) {
  for (const auto& e : g.edges())
    if (const ir::Type& t = types.type_of(e.get()); t.defined()) e->type = t;
  for (const auto& n : g.nodes)
    for (auto& a : n->attributes) {
      if (a.g) annotate_graph(*a.g, types);
      for (auto& sub : a.graphs) annotate_graph(*sub, types);
    }
}

}  // namespace

void annotate(ir::Model& model, const Inferred& types) {
  annotate_graph(*model.graph, types);
  for (auto& fn : model.functions) annotate_graph(*fn->body, types);
}

Inferred infer_model(const ir::Model& model, check::Diagnostics& out, const InferOptions& options) {
  Inferred result;
  Walker(model, result, out, options).graph(*model.graph, nullptr, nullptr, nullptr);
  return result;
}

std::vector<ir::Type> infer_node(const ir::Model& model, const ir::Node& n, const Inferred& known,
                                 check::Diagnostics& out) {
  Inferred local;
  auto take = [&](const ir::Edge* e) {
    if (!e) return;
    local.types_[e] = known.type_of(e);
    if (const Tensor* v = known.value_of(e)) local.values_[e] = *v;
  };
  for (const ir::Edge* e : n.inputs) take(e);
  for (const ir::Edge* e : n.implicit_inputs) take(e);
  InferOptions options;
  options.refine_with_declarations = false;
  Walker(model, local, out, options).lone_node(n);
  std::vector<ir::Type> types;
  for (const ir::Edge* e : n.outputs) {
    auto it = e ? local.types_.find(e) : local.types_.end();
    types.push_back(it != local.types_.end() ? it->second : ir::Type{});
  }
  return types;
}

}  // namespace bough::infer
