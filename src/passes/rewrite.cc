#include "passes/rewrite.h"

#include <algorithm>

namespace bough::passes {

namespace {

void visit(ir::Graph& g, const std::function<void(ir::Graph&)>& fn) {
  fn(g);
  // The callback may rewrite g.nodes (inlining a branch), so walk by index.
  for (size_t i = 0; i < g.nodes.size(); ++i)
    for (ir::Graph* sub : subgraphs(*g.nodes[i])) visit(*sub, fn);
}

}  // namespace

void for_each_graph(ir::Model& model, const std::function<void(ir::Graph&)>& fn) {
  if (model.graph) visit(*model.graph, fn);
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

void erase_nodes(ir::Graph& graph, const std::unordered_set<const ir::Node*>& doomed) {
  if (doomed.empty()) return;
  std::erase_if(graph.nodes, [&](const auto& n) { return doomed.count(n.get()) > 0; });
}

ir::Node* NodeEdits::add_before(const ir::Node& anchor, const std::string& op_type,
                                const std::string& name) {
  // Not through Graph::new_node, which appends to g.nodes: the pass is walking that list.
  auto n = std::make_unique<ir::Node>();
  n->op_type = op_type;
  n->name = name;
  n->graph = &g_;
  ir::Node* added = n.get();
  put_before(anchor, std::move(n));
  return added;
}

void NodeEdits::put_before(const ir::Node& anchor, std::unique_ptr<ir::Node> n) {
  before_[&anchor].push_back(std::move(n));
}

int NodeEdits::apply() {
  if (before_.empty() && removed_.empty()) return 0;
  std::vector<std::unique_ptr<ir::Node>> nodes;
  nodes.reserve(g_.nodes.size());
  int removed = 0;
  for (auto& n : g_.nodes) {
    if (const auto it = before_.find(n.get()); it != before_.end())
      for (auto& placed : it->second) nodes.push_back(std::move(placed));
    if (removed_.count(n.get()))
      ++removed;
    else
      nodes.push_back(std::move(n));
  }
  g_.nodes = std::move(nodes);
  before_.clear();
  removed_.clear();
  return removed;
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

ir::Edge* add_initializer(ir::Graph& g, NameSet& names, const std::string& name, Tensor value) {
  ir::Edge* e = g.new_edge(names.claim_new(name), ir::Edge::Origin::Initializer);
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < value.rank(); ++i) dims.push_back(ir::Dim::known(value.dim(i)));
  e->type = ir::Type::tensor(value.type(), ir::Shape::of(std::move(dims)));
  e->data = std::move(value);
  g.initializers.push_back(e);
  return e;
}

}  // namespace bough::passes
