// layer_layout: ranks by longest path, and orders that undo a crossing.
#include "bough/show_layout.h"

#include <gtest/gtest.h>

namespace bough::cli {
namespace {

// 0 -> 1 -> 2 -> 3, 0 -> 2 (a skip: 2 stays below 1), 0 -> 4.
TEST(ShowLayout, RankIsTheLongestPathFromASource) {
  const auto place = layer_layout(5, {{0, 1}, {1, 2}, {0, 2}, {2, 3}, {0, 4}});
  std::vector<int> ranks;
  for (const auto& p : place) ranks.push_back(p.rank);
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3, 1}));
}

// Sources 0 and 1; 0 feeds 3 and 1 feeds 2: in index order the two edges cross, so the
// sweeps put 3 before 2.
TEST(ShowLayout, OrderUndoesACrossing) {
  const auto place = layer_layout(4, {{0, 3}, {1, 2}});
  EXPECT_EQ(place[0].order, 0);
  EXPECT_EQ(place[1].order, 1);
  EXPECT_EQ(place[3].order, 0);
  EXPECT_EQ(place[2].order, 1);
}

// Edges against the item order (not topological) and out of range are ignored.
TEST(ShowLayout, IgnoresBackwardAndOutOfRangeEdges) {
  const auto place = layer_layout(2, {{1, 0}, {0, 5}, {-1, 1}});
  EXPECT_EQ(place[0].rank, 0);
  EXPECT_EQ(place[1].rank, 0);
  EXPECT_EQ(place[1].order, 1);
}

}  // namespace
}  // namespace bough::cli
