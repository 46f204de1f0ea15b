// kernels::extreme_f32 (vector max/min with NaN tracked apart) against a plain loop, for
// every length up to past two vectors and a long one, with a NaN, an infinity or the
// extreme itself at every position; and ReduceMax/ReduceMin over a contiguous axis (which
// use it) against the same loop.
#include "kernels/extreme_f32.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "model_builder.h"

namespace bough::kernels {
namespace {

// The max or min with NaN winning, element by element.
float plain_extreme(const float* x, int64_t n, bool largest) {
  float e = x[0];
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return x[i];
    if (largest ? x[i] > e : x[i] < e) e = x[i];
  }
  return e;
}

void expect_same(float got, float want, const std::string& what) {
  if (std::isnan(want))
    EXPECT_TRUE(std::isnan(got)) << what;
  else
    EXPECT_EQ(got, want) << what;
}

TEST(ExtremeF32, MatchesAPlainLoopWithNaNsAndInfinities) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> value(-100, 100);
  const float inf = std::numeric_limits<float>::infinity();
  for (int64_t n : {1, 2, 7, 8, 15, 16, 17, 31, 33, 47, 1000})
    for (int64_t at = 0; at < n; at += (n > 50 ? 97 : 1))
      for (float special : {NAN, inf, -inf, 1000.0f, -1000.0f}) {
        std::vector<float> x(static_cast<size_t>(n));
        for (float& v : x) v = value(gen);
        x[static_cast<size_t>(at)] = special;
        for (bool largest : {true, false})
          expect_same(extreme_f32(x.data(), n, largest), plain_extreme(x.data(), n, largest),
                      "n " + std::to_string(n) + " at " + std::to_string(at) + " special " +
                          std::to_string(special) + " largest " + std::to_string(largest));
      }
}

TEST(ExtremeF32, ReduceMaxAndMinOverTheLastAxis) {
  std::mt19937 gen(6);
  std::uniform_real_distribution<float> value(-1, 1);
  const int64_t rows = 4, n = 45;
  std::vector<float> x(static_cast<size_t>(rows * n));
  for (float& v : x) v = value(gen);
  x[2 * n + 30] = NAN;  // row 2 gives NaN for both
  for (const char* op : {"ReduceMax", "ReduceMin"}) {
    const bool largest = std::string(op) == "ReduceMax";
    const auto out = test::run_node(
        op, {{"x", test::f32({rows, n}, x)}}, 1,
        [](onnxpb::NodeProto& node) { test::set_ints(node, "axes", {1}); }, 13, "extreme", 1);
    const std::vector<double> got = test::doubles_of(out[0]);
    ASSERT_EQ(got.size(), static_cast<size_t>(rows));
    for (int64_t r = 0; r < rows; ++r)
      expect_same(static_cast<float>(got[r]), plain_extreme(x.data() + r * n, n, largest),
                  std::string(op) + " row " + std::to_string(r));
  }
}

}  // namespace
}  // namespace bough::kernels
