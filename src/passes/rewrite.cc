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

void rename_captures(ir::Graph& g, const std::unordered_set<const ir::Edge*>& renamed) {
  if (renamed.empty()) return;
  for (ir::Edge* c : g.captures)
    if (renamed.count(c)) c->name = c->outer->name;
  for (const auto& n : g.nodes) {
    const auto& implicit = n->implicit_inputs;
    if (std::none_of(implicit.begin(), implicit.end(),
                     [&](const ir::Edge* e) { return renamed.count(e) > 0; }))
      continue;
    for (ir::Graph* sub : subgraphs(*n)) {
      std::unordered_set<const ir::Edge*> below;
      for (const ir::Edge* c : sub->captures)
        if (renamed.count(c->outer)) below.insert(c);
      rename_captures(*sub, below);
    }
  }
}

namespace {

// The captures of `sub` whose outer value `map` replaces read its replacement: the capture
// sub already has of it, or the same capture pointed at it (renamed).
void recapture(ir::Graph& sub, const EdgeMap& map) {
  std::unordered_map<const ir::Edge*, ir::Edge*> capture_of;  // outer value -> capture
  for (ir::Edge* c : sub.captures) capture_of.emplace(c->outer, c);
  EdgeMap merged;  // a capture -> the capture of the same new value it gives way to
  std::unordered_set<const ir::Edge*> renamed;
  for (ir::Edge* c : sub.captures) {
    const auto it = map.find(c->outer);
    if (it == map.end()) continue;
    auto [existing, added] = capture_of.emplace(it->second, c);
    if (!added) {
      merged[c] = existing->second;
      continue;
    }
    c->outer = it->second;
    if (c->name != c->outer->name) renamed.insert(c);
  }
  rename_captures(sub, renamed);
  if (merged.empty()) return;
  replace_uses(sub, merged);
  std::erase_if(sub.captures, [&](const ir::Edge* c) { return merged.count(c) > 0; });
}

}  // namespace

void replace_uses(ir::Graph& graph, const EdgeMap& map) {
  if (map.empty()) return;
  const auto replaced = [&](ir::Edge* e) {
    const auto it = map.find(e);
    return it == map.end() ? e : it->second;
  };
  for (ir::Edge*& e : graph.outputs) e = replaced(e);
  for (const auto& n : graph.nodes) {
    for (ir::Edge*& e : n->inputs) e = replaced(e);
    auto& implicit = n->implicit_inputs;
    if (std::none_of(implicit.begin(), implicit.end(),
                     [&](const ir::Edge* e) { return map.count(e) > 0; }))
      continue;
    for (ir::Graph* sub : subgraphs(*n)) recapture(*sub, map);
    // A replaced value the node already lists goes; another takes the old one's place.
    std::unordered_set<const ir::Edge*> listed;
    for (const ir::Edge* e : implicit)
      if (!map.count(e)) listed.insert(e);
    std::vector<ir::Edge*> kept;
    for (ir::Edge* e : implicit) {
      ir::Edge* now = replaced(e);
      if (now == e || listed.insert(now).second) kept.push_back(now);
    }
    implicit = std::move(kept);
  }
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

}  // namespace bough::passes
