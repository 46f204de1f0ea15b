// The metrics' arithmetic: histogram buckets (Prometheus' le is inclusive), cumulative
// counts, the sum, and label escaping; expected values worked out by hand.
#include "serve/metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace bough::serve {
namespace {

// What follows `prefix` on the one line of `text` that starts with it ("" when none or two).
std::string sample(const std::string& text, const std::string& prefix) {
  std::istringstream lines(text);
  std::vector<std::string> found;
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with(prefix)) found.push_back(line.substr(prefix.size()));
  EXPECT_EQ(found.size(), 1u) << prefix;
  return found.size() == 1 ? found[0] : "";
}

TEST(DurationHistogram, BucketsAreInclusiveAndCumulative) {
  DurationHistogram h;
  // 100 lands in le=100 (inclusive), 101 in le=250, 250 in le=250, 10 s exactly in the
  // last bound, past it in +Inf only.
  for (uint64_t us : {0, 100, 101, 250, 10000000, 10000001}) h.observe(us);
  std::string text;
  h.write(text, "t", "m=\"a\"");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"100\"} "), "2");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"250\"} "), "4");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"500\"} "), "4");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"2500000\"} "), "4");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"10000000\"} "), "5");
  EXPECT_EQ(sample(text, "t_bucket{m=\"a\",le=\"+Inf\"} "), "6");
  EXPECT_EQ(sample(text, "t_count{m=\"a\"} "), "6");
  EXPECT_EQ(sample(text, "t_sum{m=\"a\"} "),
            std::to_string(0 + 100 + 101 + 250 + 10000000 + 10000001));
  // One line per bound, then +Inf, sum and count.
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')),
            DurationHistogram::kBounds.size() + 3);
}

TEST(ModelMetrics, SuccessAddsItsTimesAndFailureOnlyCounts) {
  ModelMetrics m;
  m.succeeded({.queue_us = 30, .compute_us = 700}, 900);
  m.succeeded({.queue_us = 0, .compute_us = 2000}, 2100);
  m.failed();
  EXPECT_EQ(m.success.load(), 2u);
  EXPECT_EQ(m.failure.load(), 1u);
  EXPECT_EQ(m.request_us.load(), 3000u);
  EXPECT_EQ(m.queue_us.load(), 30u);
  EXPECT_EQ(m.compute_us.load(), 2700u);
  std::string text;
  m.compute.write(text, "c", "x=\"1\"");
  EXPECT_EQ(sample(text, "c_bucket{x=\"1\",le=\"1000\"} "), "1");
  EXPECT_EQ(sample(text, "c_bucket{x=\"1\",le=\"2500\"} "), "2");
}

TEST(RequestTimer, CountsAFailureUnlessItSucceeded) {
  ModelMetrics m;
  { RequestTimer timer(m); }
  {
    RequestTimer timer(m);
    timer.times.compute_us = 5;
    timer.succeeded();
  }
  EXPECT_EQ(m.failure.load(), 1u);
  EXPECT_EQ(m.success.load(), 1u);
  EXPECT_EQ(m.compute_us.load(), 5u);
}

TEST(EscapeLabel, BackslashQuoteAndNewline) {
  EXPECT_EQ(escape_label("plain-name_1"), "plain-name_1");
  EXPECT_EQ(escape_label("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
}

}  // namespace
}  // namespace bough::serve
