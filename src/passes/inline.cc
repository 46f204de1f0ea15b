#include "passes/inline.h"

#include <iterator>

#include "ir/clone.h"

namespace bough::passes {

ir::Edge* Inliner::moved_edge(ir::Graph& g, const ir::Edge& from, ir::Edge::Origin origin) {
  ir::Edge* e = g.new_edge(names_.claim(from.name), origin);
  ir::copy_value_details(from, *e);
  return e;
}

ir::Edge* Inliner::add_initializer(ir::Graph& g, const std::string& name, const Tensor& value) {
  ir::Edge* e = g.new_edge(names_.claim_new(name), ir::Edge::Origin::Initializer);
  std::vector<ir::Dim> dims;
  for (size_t i = 0; i < value.rank(); ++i) dims.push_back(ir::Dim::known(value.dim(i)));
  e->type = ir::Type::tensor(value.type(), ir::Shape::of(std::move(dims)));
  e->data = value;
  g.initializers.push_back(e);
  return e;
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

void Inliner::replace_node(ir::Graph& g, size_t at, ir::Graph& sub, EdgeMap map,
                           const std::vector<ir::Edge*>& targets,
                           std::vector<std::unique_ptr<ir::Node>> after) {
  names_.count();  // while `sub` is still part of the model
  std::unique_ptr<ir::Node> owner = std::move(g.nodes[at]);  // keeps `sub` alive until done
  g.nodes.erase(g.nodes.begin() + static_cast<std::ptrdiff_t>(at));
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
  std::vector<std::unique_ptr<ir::Node>> placed = std::move(sub.nodes);
  sub.nodes.clear();
  for (auto& n : placed) move_node(g, *n, map);
  for (const auto& [target, b] : copied) {
    placed.push_back(make_node(g, "Identity", {map.at(b)}, {target}));
    if (!owner->name.empty())
      placed.back()->name = names_.claim_new(owner->name + "/" + target->name);
  }
  for (auto& n : after) placed.push_back(std::move(n));
  g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(at),
                 std::make_move_iterator(placed.begin()), std::make_move_iterator(placed.end()));
}

void Inliner::move_node(ir::Graph& g, ir::Node& n, EdgeMap& map) {
  n.graph = &g;
  for (ir::Edge*& in : n.inputs)
    if (in) in = map.at(in);
  for (ir::Edge*& in : n.implicit_inputs) in = map.at(in);
  for (ir::Graph* s : subgraphs(n)) {
    s->parent = &g;
    for (ir::Edge* c : s->captures) set_capture_outer(c, map.at(c->outer));
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
