// bough bench MODEL [--input NAME=FILE|@random]... [--iters N | --duration S] [--warmup W]
// [--json] — times repeated runs in one process: min, mean, median, p90/p95/p99, max,
// stddev, throughput and peak memory. Inputs not given are generated from their types.
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>

#include "bough/session.h"
#include "commands.h"
#include "inputs.h"
#include "options.h"
#include "stats.h"
#include "util/json.h"

namespace bough::cli {

namespace {

struct Options {
  RunOptions run;
  int iters = 100;
  double duration = 0;
  int warmup = 5;
  bool json = false;
};

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The most memory the process held at once, in bytes (Linux reports KiB).
long long peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<long long>(usage.ru_maxrss) * 1024;
}

// Timings are called noisy when the 90th percentile is this much above the median: a steady
// machine keeps nine runs in ten close to the typical one (a rare preempted run, which
// inflates the mean and stddev, does not count).
constexpr double kNoisySpread = 0.10;

int bench(const Options& opt) {
  Model model = Model::load(opt.run.model);
  auto t0 = Clock::now();
  Session session(model,
                  SessionOptions{opt.run.threads, opt.run.allow_newer_opset, opt.run.optimization});
  const double create = seconds_since(t0);
  NamedValues feed = load_inputs(opt.run, model, session, true);
  for (int i = 0; i < opt.warmup; ++i) session.run(feed);
  std::vector<double> times;
  const auto start = Clock::now();
  // With --duration: as many runs as fit (at least one); else --iters runs.
  while (opt.duration > 0 ? times.empty() || seconds_since(start) < opt.duration
                          : static_cast<int>(times.size()) < opt.iters) {
    auto begin = Clock::now();
    NamedValues out = session.run(feed);
    times.push_back(seconds_since(begin));
  }
  const RunStats s = summarize_runs(times);
  const double per_second = static_cast<double>(s.runs) / s.total;
  const long long rss = peak_rss_bytes();
  const double spread = s.median > 0 ? s.p90 / s.median - 1 : 0;
  const bool noisy = spread > kNoisySpread;
  if (opt.json) {
    auto ns = [](double seconds) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", seconds * 1e9);
      return std::string(buf);
    };
    std::printf(
        "{\"model\": %s, \"threads\": %d, \"warmup\": %d, \"runs\": %zu, "
        "\"session_creation_ns\": %s,\n \"ns\": {\"min\": %s, \"mean\": %s, \"median\": %s, "
        "\"p90\": %s, \"p95\": %s, \"p99\": %s, \"max\": %s, \"stddev\": %s},\n"
        " \"runs_per_second\": %.6g, \"peak_rss_bytes\": %lld, \"noisy\": %s}\n",
        util::json_string(opt.run.model).c_str(), opt.run.threads, opt.warmup, s.runs,
        ns(create).c_str(), ns(s.min).c_str(), ns(s.mean).c_str(), ns(s.median).c_str(),
        ns(s.p90).c_str(), ns(s.p95).c_str(), ns(s.p99).c_str(), ns(s.max).c_str(),
        ns(s.stddev).c_str(), per_second, rss, noisy ? "true" : "false");
  } else {
    std::printf("model %s, threads %d, %zu runs after %d warm-up, session creation %s\n",
                opt.run.model.c_str(), opt.run.threads, s.runs, opt.warmup,
                format_duration(create).c_str());
    std::printf("min %s  mean %s  median %s  p90 %s  p95 %s  p99 %s  max %s  stddev %s\n",
                format_duration(s.min).c_str(), format_duration(s.mean).c_str(),
                format_duration(s.median).c_str(), format_duration(s.p90).c_str(),
                format_duration(s.p95).c_str(), format_duration(s.p99).c_str(),
                format_duration(s.max).c_str(), format_duration(s.stddev).c_str());
    std::printf("throughput %.4g runs/s  peak RSS %.1f MiB\n", per_second,
                static_cast<double>(rss) / (1 << 20));
  }
  if (noisy)
    std::fprintf(stderr,
                 "bough bench: warning: p90 is %.0f%% above the median; the machine looks busy, "
                 "so the numbers are noisy\n",
                 100 * spread);
  return kExitOk;
}

}  // namespace

Command add_bench(CLI::App& root) {
  CLI::App* app = root.add_subcommand(
      "bench",
      "time repeated runs in one process; inputs not given are generated from their types");
  auto opt = std::make_shared<Options>();
  add_run_options(app, &opt->run);
  CLI::Option* iters = app->add_option("--iters", opt->iters, "timed runs")
                           ->check(at_least(1))
                           ->capture_default_str();
  app->add_option("--duration", opt->duration,
                  "time runs for this many seconds instead of a number of runs")
      ->check(positive_number())
      ->excludes(iters);
  app->add_option("--warmup", opt->warmup, "untimed runs first")
      ->check(at_least(0))
      ->capture_default_str();
  app->add_flag("--json", opt->json, "print the statistics as JSON (times in nanoseconds)");
  return {app, [opt] { return bench(*opt); }};
}

}  // namespace bough::cli
