// Every float through each fast function of kernels/fast_math.h, against double-precision
// libm: prints the worst error in ulps, where it occurs, and whether it is within the bound
// the header states. Build with `scripts/build fast_math_exhaustive` and run
// build/fast_math_exhaustive [NAME...] (all functions by default); exit status 1 if a bound
// is broken. Takes minutes per function; the unit test samples the same sweep.
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "kernels/fast_math_reference.h"

namespace {

// The worst error found, as a fraction of the stated bound (see bound_fraction), its input
// and its error in ulps.
struct Worst {
  double fraction = 0;
  uint32_t bits = 0;
  double ulp = 0;
};

// The worst error over bit patterns [begin, end), fast values computed a block at a time
// by the kernels' own loop (kernels::fast_map, on the best target this CPU runs).
Worst sweep(const bough::test::FastMathCase& c, uint64_t begin, uint64_t end) {
  constexpr int kBlock = 4096;
  float in[kBlock], out[kBlock];
  Worst w;
  for (uint64_t b = begin; b < end; b += kBlock) {
    const int n = static_cast<int>(std::min<uint64_t>(kBlock, end - b));
    for (int i = 0; i < n; ++i) in[i] = bough::test::float_of(static_cast<uint32_t>(b + i));
    bough::kernels::fast_map(c.fn, in, out, n);
    for (int i = 0; i < n; ++i) {
      const double exact = c.exact(in[i]);
      const double f = bough::test::bound_fraction(c, out[i], exact);
      if (f > w.fraction)
        w = {f, static_cast<uint32_t>(b + i), bough::test::ulp_error(out[i], exact)};
    }
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  bool ok = true;
  for (const auto& c : bough::test::kFastMathCases) {
    bool wanted = argc == 1;
    for (int i = 1; i < argc; ++i) wanted |= std::strcmp(argv[i], c.name) == 0;
    if (!wanted) continue;
    std::vector<Worst> worst(threads);
    std::vector<std::thread> pool;
    const uint64_t total = uint64_t{1} << 32, part = total / threads;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        worst[t] = sweep(c, t * part, t + 1 == threads ? total : (t + 1) * part);
      });
    Worst w;
    for (unsigned t = 0; t < threads; ++t) {
      pool[t].join();
      if (worst[t].fraction > w.fraction) w = worst[t];
    }
    const bool within = w.fraction <= 1;
    ok &= within;
    std::printf("%-10s worst %.3f of the bound (%.3f ulp, bound %.3g) at x = %.9g (0x%08x): %s\n",
                c.name, w.fraction, w.ulp, c.max_ulp,
                static_cast<double>(bough::test::float_of(w.bits)), w.bits,
                within ? "ok" : "BROKEN");
    std::fflush(stdout);
  }
  return ok ? 0 : 1;
}
