#include "stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace bough::cli {

RunStats summarize_runs(std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  RunStats s;
  s.runs = seconds.size();
  const double n = static_cast<double>(s.runs);
  auto rank = [&](double q) {
    size_t r = static_cast<size_t>(std::ceil(q * n));
    return seconds[std::clamp<size_t>(r, 1, s.runs) - 1];
  };
  for (double t : seconds) s.total += t;
  s.min = seconds.front();
  s.max = seconds.back();
  s.mean = s.total / n;
  s.median = rank(0.5);
  s.p90 = rank(0.9);
  s.p95 = rank(0.95);
  s.p99 = rank(0.99);
  double squares = 0;
  for (double t : seconds) squares += (t - s.mean) * (t - s.mean);
  s.stddev = s.runs > 1 ? std::sqrt(squares / (n - 1)) : 0;
  return s;
}

std::string format_duration(double seconds) {
  struct Unit {
    double scale;
    const char* name;
  };
  static constexpr Unit kUnits[] = {{1e9, "ns"}, {1e6, "us"}, {1e3, "ms"}, {1, "s"}};
  Unit unit = kUnits[3];
  for (const Unit& u : kUnits)
    if (seconds * u.scale < 999.5) {
      unit = u;
      break;
    }
  char buf[32];
  std::snprintf(buf, sizeof buf, seconds < 999.5 ? "%.3g %s" : "%.0f %s", seconds * unit.scale,
                unit.name);
  return buf;
}

}  // namespace bough::cli
