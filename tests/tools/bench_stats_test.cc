// `bough bench` statistics (tools/bough/stats.h) against values worked out by hand.
#include <gtest/gtest.h>

#include "bough/stats.h"

namespace bough::cli {
namespace {

TEST(BenchStats, NearestRankPercentilesMeanAndSampleStddev) {
  // 1..10 shuffled: nearest rank q -> the ceil(10 q)-th smallest.
  RunStats s = summarize_runs({7, 3, 10, 1, 5, 9, 2, 8, 6, 4});
  EXPECT_EQ(s.runs, 10u);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 10);
  EXPECT_EQ(s.median, 5);
  EXPECT_EQ(s.p90, 9);
  EXPECT_EQ(s.p95, 10);
  EXPECT_EQ(s.p99, 10);
  EXPECT_DOUBLE_EQ(s.mean, 5.5);
  EXPECT_DOUBLE_EQ(s.total, 55);
  // sum of (i - 5.5)^2 = 82.5; / 9.
  EXPECT_NEAR(s.stddev, 3.0276503540974917, 1e-12);
  RunStats one = summarize_runs({0.25});
  EXPECT_EQ(one.median, 0.25);
  EXPECT_EQ(one.p99, 0.25);
  EXPECT_EQ(one.stddev, 0);
}

TEST(BenchStats, DurationsInTheUnitThatFits) {
  EXPECT_EQ(format_duration(6.31e-7), "631 ns");
  EXPECT_EQ(format_duration(4.214e-6), "4.21 us");
  EXPECT_EQ(format_duration(0.01234), "12.3 ms");
  EXPECT_EQ(format_duration(2.5), "2.5 s");
  EXPECT_EQ(format_duration(9.9996e-7), "1 us");  // rounds up into the next unit
  EXPECT_EQ(format_duration(3e-9), "3 ns");
  EXPECT_EQ(format_duration(4321), "4321 s");
}

}  // namespace
}  // namespace bough::cli
