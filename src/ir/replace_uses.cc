#include "ir/replace_uses.h"

#include <algorithm>

namespace bough::ir {

std::vector<Graph*> subgraphs(const Node& node) {
  std::vector<Graph*> out;
  for (const auto& a : node.attributes) {
    if (a.g) out.push_back(a.g.get());
    for (const auto& g : a.graphs) out.push_back(g.get());
  }
  return out;
}

void rename_captures(Graph& g, const std::unordered_set<const Edge*>& renamed) {
  if (renamed.empty()) return;
  for (Edge* c : g.captures)
    if (renamed.count(c)) c->name = c->outer->name;
  for (const auto& n : g.nodes) {
    const auto& implicit = n->implicit_inputs;
    if (std::none_of(implicit.begin(), implicit.end(),
                     [&](const Edge* e) { return renamed.count(e) > 0; }))
      continue;
    for (Graph* sub : subgraphs(*n)) {
      std::unordered_set<const Edge*> below;
      for (const Edge* c : sub->captures)
        if (renamed.count(c->outer)) below.insert(c);
      rename_captures(*sub, below);
    }
  }
}

namespace {

// The captures of `sub` whose outer value `map` replaces read its replacement: the capture
// sub already has of it, or the same capture pointed at it (renamed).
void recapture(Graph& sub, const EdgeMap& map) {
  std::unordered_map<const Edge*, Edge*> capture_of;  // outer value -> capture
  for (Edge* c : sub.captures) capture_of.emplace(c->outer, c);
  EdgeMap merged;  // a capture -> the capture of the same new value it gives way to
  std::unordered_set<const Edge*> renamed;
  for (Edge* c : sub.captures) {
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
  std::erase_if(sub.captures, [&](const Edge* c) { return merged.count(c) > 0; });
}

}  // namespace

void replace_uses(Graph& graph, const EdgeMap& map) {
  if (map.empty()) return;
  const auto replaced = [&](Edge* e) {
    const auto it = map.find(e);
    return it == map.end() ? e : it->second;
  };
  for (Edge*& e : graph.outputs) e = replaced(e);
  for (const auto& n : graph.nodes) {
    for (Edge*& e : n->inputs) e = replaced(e);
    auto& implicit = n->implicit_inputs;
    if (std::none_of(implicit.begin(), implicit.end(),
                     [&](const Edge* e) { return map.count(e) > 0; }))
      continue;
    for (Graph* sub : subgraphs(*n)) recapture(*sub, map);
    // A replaced value the node already lists goes; another takes the old one's place.
    std::unordered_set<const Edge*> listed;
    for (const Edge* e : implicit)
      if (!map.count(e)) listed.insert(e);
    std::vector<Edge*> kept;
    for (Edge* e : implicit) {
      Edge* now = replaced(e);
      if (now == e || listed.insert(now).second) kept.push_back(now);
    }
    implicit = std::move(kept);
  }
}

}  // namespace bough::ir
