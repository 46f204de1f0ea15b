// bough bench MODEL|DIR [--input NAME=FILE|@random]... [--iters N | --duration S] [--warmup W]
// [-c N] [--json] [--profile] [--profile-json FILE] — times repeated runs in one process: min,
// mean, median, p90/p95/p99, max, stddev, throughput and peak memory; with -c N, N runs at
// once on N sessions; with --profile, per-node times of further runs. Inputs not given are
// generated from their types, free dimensions 1 unless --dim sizes them; a test folder DIR
// runs its model.onnx on the inputs of its test_data_set_0 (as onnxruntime_perf_test does).
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <memory>
#include <thread>

#include "bough/session.h"
#include "commands.h"
#include "inputs.h"
#include "options.h"
#include "profile.h"
#include "stats.h"
#include "util/cpu_cores.h"
#include "util/files.h"
#include "util/json.h"

namespace bough::cli {

namespace {
namespace bench_op {

struct Options {
  RunOptions run;
  int iters = 100;
  double duration = 0;
  int warmup = 5;
  int concurrent = 1;  // runs at once, each on a session of its own
  bool json = false;
  bool profile = false;
  std::string profile_json;  // a Chrome trace of the profiled runs goes here
};

// How many runs --profile times node by node (after the timed ones): as many as were timed,
// up to this.
constexpr size_t kMaxProfiledRuns = 100;
// The trace keeps whole runs while they hold at most this many node events in all (the
// first run always), so that a long Loop does not make a file of gigabytes.
constexpr size_t kMaxTraceEvents = 1000000;

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

// Rows the --profile table shows; the rest are summed in one line.
constexpr size_t kProfileRows = 40;

std::vector<ProfiledRun> profile_runs(Session& session, const NamedValues& feed, size_t count) {
  std::vector<ProfiledRun> runs(count);
  for (ProfiledRun& run : runs) {
    run.start_ns =
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
            .count();
    session.run_profiled(feed, run.profile);
  }
  return runs;
}

// Writes the Chrome trace of the first runs that fit kMaxTraceEvents (the first always).
void write_trace(const std::vector<ProfiledRun>& runs, const std::string& path) {
  size_t kept = 0, events = 0;
  while (kept < runs.size() &&
         (kept == 0 || events + runs[kept].profile.nodes.size() <= kMaxTraceEvents))
    events += runs[kept++].profile.nodes.size();
  write_file_atomic(path, chrome_trace({runs.begin(), runs.begin() + static_cast<long>(kept)}));
  std::fprintf(stderr, "bough bench: wrote a trace of %zu run%s (%zu node events) to %s\n", kept,
               kept == 1 ? "" : "s", events, path.c_str());
}

// What the timed runs measured: each run's time, how many runs each session made, and the
// wall time of them all.
struct Timed {
  std::vector<double> times;
  std::vector<size_t> runs_per_session;
  double wall = 0;
};

// The timed runs, each session on a thread of its own (the first on this one): --iters runs
// in all, handed out one at a time, or with --duration as many as fit (each session at least
// one).
Timed time_runs(const std::vector<Session*>& sessions, const NamedValues& feed,
                const Options& opt) {
  std::atomic<int> claimed{0};
  std::vector<std::vector<double>> times(sessions.size());
  std::vector<std::exception_ptr> errors(sessions.size());
  // The clock starts once every thread has started (starting one takes longer than a small
  // model's run), and they all begin together.
  std::atomic<size_t> waiting{0};
  std::atomic<bool> go{false};
  Clock::time_point start;
  auto timed_runs = [&](size_t i) {
    waiting.fetch_add(1);
    while (!go.load()) std::this_thread::yield();
    try {
      while (opt.duration > 0 ? times[i].empty() || seconds_since(start) < opt.duration
                              : claimed.fetch_add(1) < opt.iters) {
        auto begin = Clock::now();
        NamedValues out = sessions[i]->run(feed);
        times[i].push_back(seconds_since(begin));
      }
    } catch (...) {
      errors[i] = std::current_exception();
    }
  };
  std::vector<std::thread> threads;
  for (size_t i = 1; i < sessions.size(); ++i) threads.emplace_back(timed_runs, i);
  while (waiting.load() < sessions.size() - 1) std::this_thread::yield();
  start = Clock::now();
  go.store(true);
  timed_runs(0);
  for (std::thread& t : threads) t.join();
  Timed timed;
  timed.wall = seconds_since(start);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  for (const std::vector<double>& t : times) {
    timed.times.insert(timed.times.end(), t.begin(), t.end());
    timed.runs_per_session.push_back(t.size());
  }
  return timed;
}

int bench(Options opt) {
  if (!opt.profile_json.empty()) require_writable_folder(opt.profile_json);
  // Concurrent sessions share the cores unless told otherwise.
  if (opt.run.threads == 0 && opt.concurrent > 1)
    opt.run.threads = std::max(1, util::physical_cores() / opt.concurrent);
  opt.run.sessions = opt.concurrent;
  opt.run.free_dims_are_one = true;
  // A test folder: its model on the inputs of its first data set.
  std::error_code ec;
  if (std::filesystem::is_directory(opt.run.model, ec)) {
    opt.run.data_set = opt.run.model + "/test_data_set_0";
    opt.run.model += "/model.onnx";
  }
  SessionAndFeed opened = open_session(opt.run, true);
  Session& session = *opened.session;
  std::vector<Session*> sessions{&session};
  for (const std::unique_ptr<Session>& more : opened.more) sessions.push_back(more.get());
  const NamedValues& feed = opened.feed;
  const double create = opened.create_seconds;
  for (Session* each : sessions)
    for (int i = 0; i < opt.warmup; ++i) each->run(feed);
  const Timed timed = time_runs(sessions, feed, opt);
  const std::vector<double>& times = timed.times;
  std::vector<ProfiledRun> profiled;
  if (opt.profile || !opt.profile_json.empty())
    profiled = profile_runs(session, feed, std::min(times.size(), kMaxProfiledRuns));
  const RunStats s = summarize_runs(times);
  const double per_second = static_cast<double>(s.runs) / timed.wall;
  const long long rss = peak_rss_bytes();
  const double spread = s.median > 0 ? s.p90 / s.median - 1 : 0;
  const bool noisy = spread > kNoisySpread;
  if (opt.json) {
    auto ns = [](double seconds) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", seconds * 1e9);
      return std::string(buf);
    };
    std::string set_to_one, per_session;
    for (const std::string& d : opened.set_to_one)
      set_to_one += (set_to_one.empty() ? "" : ", ") + util::json_string(d);
    for (size_t n : timed.runs_per_session)
      per_session += (per_session.empty() ? "" : ", ") + std::to_string(n);
    std::printf(
        "{\"model\": %s, \"threads\": %d, \"concurrent\": %d, \"warmup\": %d, \"runs\": %zu, "
        "\"runs_per_session\": [%s], \"dims_set_to_1\": [%s], \"session_creation_ns\": %s,\n"
        " \"ns\": {\"min\": %s, \"mean\": %s, \"median\": %s, "
        "\"p90\": %s, \"p95\": %s, \"p99\": %s, \"max\": %s, \"stddev\": %s},\n"
        " \"runs_per_second\": %.6g, \"peak_rss_bytes\": %lld, \"noisy\": %s%s}\n",
        util::json_string(opt.run.model).c_str(), session.threads(), opt.concurrent, opt.warmup,
        s.runs, per_session.c_str(), set_to_one.c_str(), ns(create).c_str(), ns(s.min).c_str(),
        ns(s.mean).c_str(), ns(s.median).c_str(), ns(s.p90).c_str(), ns(s.p95).c_str(),
        ns(s.p99).c_str(), ns(s.max).c_str(), ns(s.stddev).c_str(), per_second, rss,
        noisy ? "true" : "false",
        opt.profile ? (",\n \"profile\": " + profile_json_rows(profiled) +
                       ",\n \"profile_ops\": " + op_summary_json(profiled))
                          .c_str()
                    : "");
  } else {
    if (opt.concurrent == 1)
      std::printf("model %s, threads %d, %zu runs after %d warm-up, session creation %s\n",
                  opt.run.model.c_str(), session.threads(), s.runs, opt.warmup,
                  format_duration(create).c_str());
    else
      std::printf(
          "model %s, %d runs at once on %d sessions of %d thread%s, %zu runs after %d warm-up "
          "each, session creation %s\n",
          opt.run.model.c_str(), opt.concurrent, opt.concurrent, session.threads(),
          session.threads() == 1 ? "" : "s", s.runs, opt.warmup, format_duration(create).c_str());
    if (!opened.set_to_one.empty())
      std::printf("free dimensions set to 1: %s (--dim NAME=N sets one)\n",
                  joined(opened.set_to_one).c_str());
    std::printf("min %s  mean %s  median %s  p90 %s  p95 %s  p99 %s  max %s  stddev %s\n",
                format_duration(s.min).c_str(), format_duration(s.mean).c_str(),
                format_duration(s.median).c_str(), format_duration(s.p90).c_str(),
                format_duration(s.p95).c_str(), format_duration(s.p99).c_str(),
                format_duration(s.max).c_str(), format_duration(s.stddev).c_str());
    std::printf("throughput %.4g runs/s  peak RSS %.1f MiB\n", per_second,
                static_cast<double>(rss) / (1 << 20));
    if (opt.profile) {
      std::fputs(profile_table(profiled, kProfileRows).c_str(), stdout);
      std::fputs(op_summary_table(profiled).c_str(), stdout);
    }
  }
  if (!opt.profile_json.empty()) write_trace(profiled, opt.profile_json);
  if (noisy)
    std::fprintf(stderr,
                 "bough bench: warning: p90 is %.0f%% above the median; the machine looks busy, "
                 "so the numbers are noisy\n",
                 100 * spread);
  return kExitOk;
}

}  // namespace bench_op
}  // namespace

Command add_bench(CLI::App& root) {
  using namespace bench_op;
  CLI::App* app = root.add_subcommand(
      "bench",
      "time repeated runs in one process; inputs not given are generated from their types, "
      "with free dimensions of 1 unless --dim sizes them. MODEL may be a test folder "
      "(model.onnx, test_data_set_0/input_N.pb): its first data set is the input");
  auto opt = std::make_shared<Options>();
  add_run_options(app, &opt->run);
  CLI::Option* iters = app->add_option("--iters", opt->iters, "timed runs")
                           ->check(at_least(1))
                           ->capture_default_str();
  app->add_option("--duration", opt->duration,
                  "time runs for this many seconds instead of a number of runs")
      ->check(positive_number())
      ->excludes(iters);
  app->add_option("--warmup", opt->warmup, "untimed runs first (on each session with -c)")
      ->check(at_least(0))
      ->capture_default_str();
  app->add_option(
         "-c,--concurrent", opt->concurrent,
         "runs at once, each on a session of its own (sharing the model's weights) "
         "and a thread of its own; --iters counts them all, and throughput is runs "
         "per second of wall time. Without --threads the sessions share the physical cores")
      ->check(at_least(1))
      ->capture_default_str();
  app->add_flag("--json", opt->json, "print the statistics as JSON (times in nanoseconds)");
  app->add_flag("--profile", opt->profile,
                "then time each node over as many runs again (at most 100), nodes inside "
                "branches and bodies included, and print the time per node and per operator");
  app->add_option("--profile-json", opt->profile_json,
                  "write a Chrome trace of the profiled runs to this file (open it in Perfetto)")
      ->type_name("FILE");
  return {app, [opt] { return bench(*opt); }};
}

}  // namespace bough::cli
