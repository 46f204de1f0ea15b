// What a parallel region costs: a loop of regions, each `work` µs of arithmetic split over
// the pool, with `gap` µs of serial work on the caller between two regions (the serial
// kernels of a run), timed on a pool of 1 and of 2 threads, each inside a run scope when
// the pool has them (BOUGH_RUN_SCOPE). bench/pool-regions builds and runs it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "util/thread_pool.h"

namespace {

using Clock = std::chrono::steady_clock;

// A dependent chain of arithmetic: `n` steps take about the same time on every core.
float chain(int64_t n, float x) {
  for (int64_t i = 0; i < n; ++i) x = x * 0.9999999f + 1e-7f;
  return x;
}

float sink = 0;

// Steps of chain() per µs on this core.
double steps_per_us() {
  const int64_t n = 20'000'000;
  const auto t0 = Clock::now();
  sink += chain(n, 1.0f);
  return n / std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

// µs per iteration (region + gap), the median of 7 timings of `iters` iterations.
double time_loop(int threads, double work_us, double gap_us, double steps_us, bool scope) {
  bough::util::ThreadPool pool(threads);
  const int64_t items = 64;
  const auto item_steps = static_cast<int64_t>(work_us * steps_us / items);
  const auto gap_steps = static_cast<int64_t>(gap_us * steps_us);
  // Counted as the kernels count it: about 2 µs of one core per kMinWorkPerThread.
  const int64_t grain = bough::util::grain_for(
      static_cast<int64_t>(work_us / items * bough::util::kMinWorkPerThread / 2));
  const int iters = std::max(20, static_cast<int>(20000 / (work_us + gap_us + 1)));
  std::vector<float> out(items);
  std::vector<double> per_iter;
  for (int rep = 0; rep < 7; ++rep) {
    const auto t0 = Clock::now();
    {
#ifdef BOUGH_RUN_SCOPE
      std::optional<bough::util::ThreadPool::RunScope> run;
      if (scope) run.emplace(pool);
#else
      (void)scope;
#endif
      for (int i = 0; i < iters; ++i) {
        pool.parallel_for(items, grain, [&](int64_t b, int64_t e) {
          for (int64_t j = b; j < e; ++j) out[j] = chain(item_steps, out[j] + 1.0f);
        });
        sink += chain(gap_steps, out[0]);
      }
    }
    per_iter.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() /
                       iters);
  }
  std::nth_element(per_iter.begin(), per_iter.begin() + 3, per_iter.end());
  return per_iter[3];
}

}  // namespace

int main() {
  const double steps_us = steps_per_us();
  std::printf(
      "| region work µs | gap µs | 1 thread µs | 2 threads µs | 2/1 |\n|---|---|---|---|---|\n");
  for (double work : {4.0, 16.0, 64.0, 256.0})
    for (double gap : {0.0, 50.0, 300.0, 2000.0}) {
      const double t1 = time_loop(1, work, gap, steps_us, true);
      const double t2 = time_loop(2, work, gap, steps_us, true);
      std::printf("| %.0f | %.0f | %.1f | %.1f | %.2f |\n", work, gap, t1, t2, t2 / t1);
    }
  return sink == 12345.0f;  // keeps the arithmetic
}
