// kernels::first_beyond against a plain loop, at every position of a long array (so that
// the hit falls in every lane of the vector loop and in the scalar tail), above and below,
// with NaN elements and a NaN bound counting as past the bound.
#include "kernels/find_beyond.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace bough::kernels {
namespace {

int64_t plain_first_beyond(const std::vector<float>& x, int64_t from, float bound, bool above) {
  for (int64_t i = from; i < static_cast<int64_t>(x.size()); ++i)
    if (above ? !(x[i] <= bound) : !(x[i] >= bound)) return i - from;
  return static_cast<int64_t>(x.size()) - from;
}

TEST(FindBeyond, FindsTheFirstValuePastTheBoundAtEveryPosition) {
  const int64_t n = 77;
  for (bool above : {true, false})
    for (int64_t hit = 0; hit <= n; ++hit)
      for (float special : {above ? 2.0f : -2.0f, NAN}) {
        std::vector<float> x(static_cast<size_t>(n), 0.5f);  // within bound 1 (above), 0 (below)
        for (int64_t i = 0; i < n; i += 3) x[static_cast<size_t>(i)] = above ? 1.0f : 0.0f;
        if (hit < n) x[static_cast<size_t>(hit)] = special;
        const float bound = above ? 1.0f : 0.0f;
        for (int64_t from : {int64_t{0}, int64_t{5}, hit}) {
          if (from > n) continue;
          EXPECT_EQ(first_beyond(x.data() + from, n - from, bound, above),
                    plain_first_beyond(x, from, bound, above))
              << "above " << above << " hit " << hit << " from " << from;
          if (hit < n && from <= hit) {
            EXPECT_EQ(first_beyond(x.data() + from, n - from, bound, above), hit - from);
          }
        }
      }
}

TEST(FindBeyond, ANaNBoundStopsAtTheFirstElement) {
  const std::vector<float> x = {1, 2, 3};
  EXPECT_EQ(first_beyond(x.data(), 3, NAN, true), 0);
  EXPECT_EQ(first_beyond(x.data(), 3, NAN, false), 0);
  EXPECT_EQ(first_beyond(x.data(), 0, 1.0f, true), 0);
}

}  // namespace
}  // namespace bough::kernels
