// Where `bough show -o view.html` places the items of one graph: in layers (ranks) top to
// bottom, each item one rank below the lowest item it reads from (longest path), and the
// items of a rank ordered to keep edges short (barycentric sweeps, as Sugiyama's method).
// The page turns ranks and orders into coordinates, so that a box opened in place makes its
// rank taller and its row wider without another pass here. Linear in items and edges, up to
// the sorting of each rank.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace bough::cli {

struct LayerPlace {
  int rank = 0, order = 0;
};

// `edges` (from, to) between `count` items given in topological order (from < to; others are
// ignored).
std::vector<LayerPlace> layer_layout(size_t count, const std::vector<std::pair<int, int>>& edges);

}  // namespace bough::cli
