#include "show_layout.h"

#include <algorithm>
#include <numeric>

namespace bough::cli {

namespace {
namespace show_layout_op {

// Neighbours of each item in one array (compressed rows): item i's are at [start[i],
// start[i + 1]).
struct Adjacency {
  std::vector<int> start, items;
};

Adjacency adjacency(size_t count, const std::vector<std::pair<int, int>>& edges, bool forward) {
  Adjacency a;
  a.start.assign(count + 1, 0);
  for (const auto& [from, to] : edges) ++a.start[static_cast<size_t>(forward ? from : to) + 1];
  std::partial_sum(a.start.begin(), a.start.end(), a.start.begin());
  a.items.resize(edges.size());
  std::vector<int> fill(a.start.begin(), a.start.end() - 1);
  for (const auto& [from, to] : edges)
    a.items[static_cast<size_t>(fill[static_cast<size_t>(forward ? from : to)]++)] =
        forward ? to : from;
  return a;
}

// One sweep: each item's key is the mean relative position (0..1 across its rank) of its
// neighbours in `near`; an item without neighbours keeps its own. Each rank is then sorted
// by key.
void sweep(std::vector<std::vector<int>>& ranks, const Adjacency& near,
           std::vector<double>& position) {
  std::vector<double> key(position.size());
  for (auto& rank : ranks) {
    for (int item : rank) {
      const auto i = static_cast<size_t>(item);
      double sum = 0;
      const int n = near.start[i + 1] - near.start[i];
      for (int k = near.start[i]; k < near.start[i + 1]; ++k)
        sum += position[static_cast<size_t>(near.items[static_cast<size_t>(k)])];
      key[i] = n ? sum / n : position[i];
    }
    std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) {
      return key[static_cast<size_t>(a)] < key[static_cast<size_t>(b)];
    });
    for (size_t k = 0; k < rank.size(); ++k)
      position[static_cast<size_t>(rank[k])] =
          (static_cast<double>(k) + 0.5) / static_cast<double>(rank.size());
  }
}

}  // namespace show_layout_op
}  // namespace

std::vector<LayerPlace> layer_layout(size_t count, const std::vector<std::pair<int, int>>& edges) {
  using namespace show_layout_op;
  std::vector<std::pair<int, int>> forward;
  for (const auto& [from, to] : edges)
    if (from >= 0 && from < to && static_cast<size_t>(to) < count) forward.emplace_back(from, to);
  const Adjacency preds = adjacency(count, forward, false), succs = adjacency(count, forward, true);
  std::vector<LayerPlace> place(count);
  int deepest = 0;
  for (size_t i = 0; i < count; ++i) {
    for (int k = preds.start[i]; k < preds.start[i + 1]; ++k)
      place[i].rank = std::max(
          place[i].rank, place[static_cast<size_t>(preds.items[static_cast<size_t>(k)])].rank + 1);
    deepest = std::max(deepest, place[i].rank);
  }
  std::vector<std::vector<int>> ranks(count ? static_cast<size_t>(deepest) + 1 : 0);
  for (size_t i = 0; i < count; ++i)
    ranks[static_cast<size_t>(place[i].rank)].push_back(static_cast<int>(i));
  std::vector<double> position(count);
  for (const auto& rank : ranks)
    for (size_t k = 0; k < rank.size(); ++k)
      position[static_cast<size_t>(rank[k])] =
          (static_cast<double>(k) + 0.5) / static_cast<double>(rank.size());
  // Down, up, down, up, down: four passes settle most layered graphs; more rarely help.
  for (int pass = 0; pass < 5; ++pass) {
    if (pass % 2 == 0) {
      sweep(ranks, preds, position);
    } else {
      std::reverse(ranks.begin(), ranks.end());
      sweep(ranks, succs, position);
      std::reverse(ranks.begin(), ranks.end());
    }
  }
  for (const auto& rank : ranks)
    for (size_t k = 0; k < rank.size(); ++k)
      place[static_cast<size_t>(rank[k])].order = static_cast<int>(k);
  return place;
}

}  // namespace bough::cli
