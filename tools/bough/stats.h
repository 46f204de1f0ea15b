// Statistics of timed runs for `bough bench`, and durations printed in the unit that fits.
#pragma once

#include <string>
#include <vector>

namespace bough::cli {

struct RunStats {
  double min = 0, mean = 0, median = 0, p90 = 0, p95 = 0, p99 = 0, max = 0, stddev = 0;
  double total = 0;  // the sum of all runs
  size_t runs = 0;
};

// Percentiles by nearest rank: the smallest time at least q of the runs take at most;
// stddev is the sample standard deviation (0 for one run). `seconds` must not be empty.
RunStats summarize_runs(std::vector<double> seconds);

// "631 ns", "4.21 us", "12.3 ms", "2.5 s": three significant digits in the unit that keeps
// the number below 1000 (whole seconds above that).
std::string format_duration(double seconds);

}  // namespace bough::cli
