// TopK (one pass keeping the best k for k <= 16, a partial sort of indices above) against a
// stable sort of each column's indices, on random shapes and axes with many ties and some
// NaNs, largest and smallest, k from 1 to past the one-pass limit, at 1 and 2 threads.
// The order it checks is the operator's: larger (smaller) first, NaN as the largest value,
// equal values by increasing index.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "model_builder.h"

namespace bough {
namespace {

using test::doubles_of;

// Whether value a goes before value b (NaN is the largest).
bool goes_before(double a, double b, bool largest) {
  const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
  if (a_nan || b_nan) return largest ? a_nan && !b_nan : b_nan && !a_nan;
  return largest ? a > b : a < b;
}

TEST(TopKReference, MatchesAStableSortOfEachColumn) {
  std::mt19937 gen(7);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(gen);
  };
  for (int trial = 0; trial < 60; ++trial) {
    const int64_t outer = pick(1, 3), n = pick(1, 300), inner = pick(1, 3);
    const int64_t k = pick(0, std::min<int64_t>(n, 24));
    const bool largest = pick(0, 1) != 0;
    // Values from a few levels, so that ties are common; 1 in 50 is NaN.
    std::vector<float> x(static_cast<size_t>(outer * n * inner));
    for (float& v : x) v = pick(0, 49) == 0 ? NAN : static_cast<float>(pick(-20, 20)) / 4;
    const Tensor input = test::f32({outer, n, inner}, x);
    for (int threads : {1, 2}) {
      SCOPED_TRACE("shape " + std::to_string(outer) + "x" + std::to_string(n) + "x" +
                   std::to_string(inner) + " k " + std::to_string(k) + " largest " +
                   std::to_string(largest) + " threads " + std::to_string(threads));
      const auto out = test::run_node(
          "TopK", {{"x", input}, {"k", test::i64({1}, {k})}}, 2,
          [&](onnxpb::NodeProto& node) {
            test::set_int(node, "axis", 1);
            test::set_int(node, "largest", largest);
          },
          11, "topk_ref", threads);
      const std::vector<double> values = doubles_of(out[0]), indices = doubles_of(out[1]);
      ASSERT_EQ(values.size(), static_cast<size_t>(outer * k * inner));
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
          auto value = [&](int64_t r) { return double{x[(o * n + r) * inner + i]}; };
          std::vector<int64_t> order(static_cast<size_t>(n));
          std::iota(order.begin(), order.end(), int64_t{0});
          std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
            return goes_before(value(a), value(b), largest);
          });
          for (int64_t j = 0; j < k; ++j) {
            const size_t at = static_cast<size_t>((o * k + j) * inner + i);
            const double want = value(order[static_cast<size_t>(j)]);
            ASSERT_EQ(indices[at], static_cast<double>(order[static_cast<size_t>(j)]))
                << "column " << o << "," << i << " rank " << j;
            if (std::isnan(want))
              ASSERT_TRUE(std::isnan(values[at]));
            else
              ASSERT_EQ(values[at], want);
          }
        }
    }
  }
}

}  // namespace
}  // namespace bough
