#include "passes/rewrite.h"

#include <algorithm>

namespace bough::passes {

std::vector<ir::Graph*> subgraphs(const ir::Node& node) {
  std::vector<ir::Graph*> out;
  for (const auto& a : node.attributes) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& g : a.graphs) out.push_back(g.get());
  }
  return out;
}

namespace {

void visit(ir::Graph& g, const std::function<void(ir::Graph&)>& fn) {
  fn(g);
  // The callback may rewrite g.nodes (inlining a branch), so walk by index.
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (ir::Graph* sub : subgraphs(*g.nodes[i])) visit(*sub, fn);
}

void rename_capture(ir::Edge* cap, const std::string& name) {
  if (cap->name == name) return;
  cap->name = name;
  for (const auto& n : cap->graph->nodes) {
    const auto& implicit = n->implicit_inputs;
    if (std::find(implicit.begin(), implicit.end(), cap) == implicit.end()) continue;
    for (ir::Graph* sub : subgraphs(*n))
      for (ir::Edge* c : sub->captures)
        if (c->outer == cap) rename_capture(c, name);
  }
}

ir::Edge* capture_of(const ir::Graph& g, const ir::Edge* outer) {
  for (ir::Edge* c : g.captures)
    if (c->outer == outer) return c;
  return nullptr;
}

}  // namespace

void for_each_graph(ir::Model& model, const std::function<void(ir::Graph&)>& fn) {
  if (model.graph) visit(*model.graph, fn);
}

bool is_graph_output(const ir::Graph& graph, const ir::Edge* e) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), e) != graph.outputs.end();
}

const Tensor* constant_value(const ir::Edge* e) {
  while (e && e->origin == ir::Edge::Origin::Capture) e = e->outer;
  if (!e) return nullptr;
  if (e->origin == ir::Edge::Origin::Initializer) return e->data ? &*e->data : nullptr;
  const ir::Node* p = e->producer;
  if (e->origin != ir::Edge::Origin::NodeOutput || !p || p->op_type != "Constant" ||
      !p->domain.empty())
    return nullptr;
  const ir::Attribute* value = p->attr("value");
  return value && value->kind == ir::Attribute::Kind::Tensor && value->ref_attr_name.empty()
             ? &value->t
             : nullptr;
}

bool calls_local_function(const ir::Model& model, const ir::Node& node) {
  return std::any_of(model.functions.begin(), model.functions.end(), [&](const auto& f) {
    return f->name == node.op_type && f->domain == node.domain;
  });
}

void set_capture_outer(ir::Edge* cap, ir::Edge* outer) {
  cap->outer = outer;
  rename_capture(cap, outer->name);
}

void replace_uses(ir::Graph& graph, ir::Edge* from, ir::Edge* to) {
  std::replace(graph.outputs.begin(), graph.outputs.end(), from, to);
  for (const auto& n : graph.nodes) {
    std::replace(n->inputs.begin(), n->inputs.end(), from, to);
    auto& implicit = n->implicit_inputs;
    auto it = std::find(implicit.begin(), implicit.end(), from);
    if (it == implicit.end()) continue;
    for (ir::Graph* sub : subgraphs(*n)) {
      ir::Edge* old = capture_of(*sub, from);
      if (!old) continue;
      if (ir::Edge* existing = capture_of(*sub, to)) {
        replace_uses(*sub, old, existing);
        sub->captures.erase(std::find(sub->captures.begin(), sub->captures.end(), old));
      } else {
        set_capture_outer(old, to);
      }
    }
    if (std::find(implicit.begin(), implicit.end(), to) != implicit.end())
      implicit.erase(it);
    else
      *it = to;
  }
}

void erase_nodes(ir::Graph& graph, const std::unordered_set<const ir::Node*>& doomed) {
  if (doomed.empty()) return;
  std::erase_if(graph.nodes, [&](const auto& n) { return doomed.count(n.get()) > 0; });
}

void NameSet::count() {
  if (counted_) return;
  counted_ = true;
  if (model_.graph) add(*model_.graph);
  for (const auto& f : model_.functions)
    if (f->body) add(*f->body);
}

void NameSet::add(const ir::Graph& graph) {
  // A capture always carries its outer value's name, so it adds none of its own.
  for (const auto& e : graph.edges())
    if (e->origin != ir::Edge::Origin::Capture) ++count_[e->name];
  for (const auto& n : graph.nodes)
    for (const ir::Graph* sub : subgraphs(*n)) add(*sub);
}

std::string NameSet::claim(const std::string& name) {
  int& count = uses(name);
  if (count <= 1) {  // only the value being named has it
    count = 2;       // now taken for good
    return name;
  }
  return claim_new(name);
}

std::string NameSet::claim_new(const std::string& name) {
  int& count = uses(name);
  if (count == 0) {
    count = 2;
    return name;
  }
  for (int k = 1;; ++k) {
    std::string candidate = name + "_" + std::to_string(k);
    int& c = uses(candidate);
    if (c == 0) {
      c = 2;
      return candidate;
    }
  }
}

}  // namespace bough::passes
