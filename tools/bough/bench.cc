// bough bench MODEL [--input NAME=FILE]... [--iters N] [--warmup W] [--threads N]
//   [--optimize LEVEL]
// Runs the model repeatedly in one process and prints per-run min / median / p90.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "bough/session.h"
#include "commands.h"
#include "inputs.h"

namespace bough::cli {

int cmd_bench(const Args& args) {
  RunOptions opt;
  bool bench = true;
  if (!parse_run_options(args, "bench", &opt, &bench)) return kExitUsage;
  Model model = Model::load(opt.model);
  auto t0 = std::chrono::steady_clock::now();
  Session session(model, SessionOptions{opt.threads, opt.allow_newer_opset, opt.optimization});
  double create_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  NamedValues feed = load_inputs(opt);
  for (int i = 0; i < opt.warmup; ++i) session.run(feed);
  std::vector<double> ms;
  for (int i = 0; i < opt.iters; ++i) {
    auto start = std::chrono::steady_clock::now();
    NamedValues out = session.run(feed);
    auto end = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
  }
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) {
    return ms[std::min(ms.size() - 1, static_cast<size_t>(q * static_cast<double>(ms.size())))];
  };
  std::printf("model %s, threads %d, %d runs after %d warm-up, session creation %.3f ms\n",
              opt.model.c_str(), opt.threads, opt.iters, opt.warmup, create_ms);
  std::printf("min %.6f ms  median %.6f ms  p90 %.6f ms\n", ms.front(), at(0.5), at(0.9));
  return kExitOk;
}

}  // namespace bough::cli
