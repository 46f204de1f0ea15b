#include "passes/inline.h"

#include "ir/clone.h"

namespace bough::passes {

ir::Edge* Inliner::moved_edge(ir::Graph& g, const ir::Edge& from, ir::Edge::Origin origin) {
  ir::Edge* e = g.new_edge(names_.claim(from.name), origin);
  ir::copy_value_details(from, *e);
  return e;
}

ir::Edge* Inliner::add_initializer(ir::Graph& g, const std::string& name, const Tensor& value) {
  return passes::add_initializer(g, names_, name, value);
}

ir::Edge* Inliner::add_value(ir::Graph& g, const std::string& name) {
  return g.new_edge(names_.claim_new(name), ir::Edge::Origin::NodeOutput);
}

std::unique_ptr<ir::Node> Inliner::make_node(ir::Graph& g, const std::string& op_type,
                                             std::vector<ir::Edge*> inputs,
                                             std::vector<ir::Edge*> outputs) {
  auto n = std::make_unique<ir::Node>();
  n->op_type = op_type;
  n->graph = &g;
  n->inputs = std::move(inputs);
  n->outputs = std::move(outputs);
  for (size_t o = 0; o < n->outputs.size(); ++o) {
    n->outputs[o]->producer = n.get();
    n->outputs[o]->producer_index = static_cast<int>(o);
  }
  return n;
}

int Inliner::expand(ir::Graph& g, const std::function<bool(const ir::Node&)>& wanted,
                    const std::function<Nodes(std::unique_ptr<ir::Node>)>& inline_one) {
  size_t first = 0;
  while (first < g.nodes.size() && !wanted(*g.nodes[first])) ++first;
  if (first == g.nodes.size()) return 0;
  names_.count();  // while every node is still part of the model
  Nodes kept;
  kept.reserve(g.nodes.size());
  for (size_t i = 0; i < first; ++i) kept.push_back(std::move(g.nodes[i]));
  // Node lists still to walk, each with the index of its next node: the graph's, then the
  // nodes that replaced one, innermost last.
  std::vector<std::pair<Nodes, size_t>> pending;
  pending.emplace_back(std::move(g.nodes), first);
  g.nodes.clear();
  int replaced = 0;
  while (!pending.empty()) {
    auto& [nodes, next] = pending.back();
    if (next == nodes.size()) {
      pending.pop_back();
      continue;
    }
    std::unique_ptr<ir::Node> n = std::move(nodes[next++]);
    if (wanted(*n)) {
      ++replaced;
      pending.emplace_back(inline_one(std::move(n)), 0);
    } else {
      kept.push_back(std::move(n));
    }
  }
  g.nodes = std::move(kept);
  return replaced;
}

Nodes Inliner::inline_node(ir::Graph& g, std::unique_ptr<ir::Node> owner, ir::Graph& sub,
                           EdgeMap map, const std::vector<ir::Edge*>& targets, Nodes after) {
  for (ir::Edge* c : sub.captures) map[c] = c->outer;
  for (ir::Edge* init : sub.initializers) {
    if (map.count(init)) continue;  // an input with a default value, bound by the caller
    ir::Edge* e = moved_edge(g, *init, ir::Edge::Origin::Initializer);
    g.initializers.push_back(e);
    map[init] = e;
  }
  // Outputs computed by sub's nodes become the targets themselves.
  std::vector<std::pair<ir::Edge*, const ir::Edge*>> copied;  // target <- sub value
  for (size_t k = 0; k < sub.outputs.size() && k < targets.size(); ++k) {
    const ir::Edge* b = sub.outputs[k];
    if (!targets[k]) continue;
    if (b->origin == ir::Edge::Origin::NodeOutput && !map.count(b))
      map[b] = targets[k];
    else
      copied.emplace_back(targets[k], b);
  }
  Nodes placed = std::move(sub.nodes);
  sub.nodes.clear();
  for (auto& n : placed) move_node(g, *n, map);
  for (const auto& [target, b] : copied) {
    placed.push_back(make_node(g, "Identity", {map.at(b)}, {target}));
    if (!owner->name.empty())
      placed.back()->name = names_.claim_new(owner->name + "/" + target->name);
  }
  for (auto& n : after) placed.push_back(std::move(n));
  return placed;
}

void Inliner::move_node(ir::Graph& g, ir::Node& n, EdgeMap& map) {
  n.graph = &g;
  for (ir::Edge*& in : n.inputs)
    if (in) in = map.at(in);
  for (ir::Edge*& in : n.implicit_inputs) in = map.at(in);
  for (ir::Graph* s : subgraphs(n)) {
    s->parent = &g;
    std::unordered_set<const ir::Edge*> renamed;
    for (ir::Edge* c : s->captures) {
      c->outer = map.at(c->outer);
      if (c->name != c->outer->name) renamed.insert(c);
    }
    rename_captures(*s, renamed);
  }
  for (size_t o = 0; o < n.outputs.size(); ++o) {
    ir::Edge*& out = n.outputs[o];
    if (!out) continue;
    auto it = map.find(out);
    ir::Edge* e = it != map.end() ? it->second
                                  : (map[out] = moved_edge(g, *out, ir::Edge::Origin::NodeOutput));
    e->producer = &n;
    e->producer_index = static_cast<int>(o);
    out = e;
  }
}

}  // namespace bough::passes
