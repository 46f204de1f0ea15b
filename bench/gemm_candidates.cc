// GFLOP/s of the single-precision GEMM candidates on the shapes of issue 13, at 1 and 2
// threads: bough's own kernel (B packed once), OpenBLAS (cblas_sgemm), oneDNN (dnnl_sgemm)
// and libxsmm (libxsmm_sgemm, 1 thread). Built and run by bench/gemm-candidates.
#include <cblas.h>
#include <libxsmm.h>
#include <oneapi/dnnl/dnnl.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <hwy/targets.h>

#include "kernels/gemm_f32.h"
#include "util/thread_pool.h"

namespace {

struct Shape {
  int64_t m, k, n;
};

// Best time of one call, in seconds: batches of calls until about 0.15 s are spent.
double best_seconds(const std::function<void()>& call) {
  using clock = std::chrono::steady_clock;
  call();
  double best = 1e30;
  int reps = 1;
  const auto start = clock::now();
  while (std::chrono::duration<double>(clock::now() - start).count() < 0.15) {
    const auto t0 = clock::now();
    for (int r = 0; r < reps; ++r) call();
    const double t = std::chrono::duration<double>(clock::now() - t0).count() / reps;
    best = std::min(best, t);
    if (t * reps < 1e-3) reps *= 2;
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  using bough::kernels::PackedB;
  // --avx2: bough's AVX2 kernels even on an AVX-512 machine (what an AVX2-only CPU runs).
  if (argc > 1 && std::string(argv[1]) == "--avx2") hwy::SetSupportedTargetsForTest(HWY_AVX2);
  const std::vector<Shape> shapes = {{64, 64, 64},   {256, 256, 256}, {1024, 1024, 1024},
                                     {16, 512, 512}, {1, 768, 3072},  {2, 768, 768},
                                     {3, 255, 100},  {128, 127, 8},   {200, 64, 3},
                                     {49, 33, 15}};
  std::printf("kernel set: %s\n", std::string(bough::kernels::gemm_kernel_set()).c_str());
  std::printf("%-18s %3s %10s %10s %10s %10s %12s\n", "shape (MxKxN)", "thr", "bough", "openblas",
              "onednn", "libxsmm", "bough us");
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (const Shape& s : shapes) {
    std::vector<float> a(s.m * s.k), b(s.k * s.n), c(s.m * s.n);
    for (float& x : a) x = dist(rng);
    for (float& x : b) x = dist(rng);
    const PackedB packed(b.data(), s.k, s.n, false);
    const double flops = 2.0 * s.m * s.n * s.k;
    for (int threads : {1, 2}) {
      bough::util::ThreadPool pool(threads);
      const double t_bough = best_seconds([&] {
        bough::kernels::gemm_f32(a.data(), s.k, packed, c.data(), s.n, s.m, pool);
      });
      openblas_set_num_threads(threads);
      const double t_blas = best_seconds([&] {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.m, s.n, s.k, 1.0f, a.data(), s.k,
                    b.data(), s.n, 0.0f, c.data(), s.n);
      });
      omp_set_num_threads(threads);
      const double t_dnnl = best_seconds([&] {
        dnnl_sgemm('N', 'N', s.m, s.n, s.k, 1.0f, a.data(), s.k, b.data(), s.n, 0.0f, c.data(),
                   s.n);
      });
      double t_xsmm = 0;
      if (threads == 1) {  // column-major: C^T = B^T A^T
        const libxsmm_blasint m = s.n, n = s.m, k = s.k;
        const float one = 1, zero = 0;
        t_xsmm = best_seconds([&] {
          libxsmm_sgemm("N", "N", &m, &n, &k, &one, b.data(), &m, a.data(), &k, &zero, c.data(),
                        &m);
        });
      }
      char name[64];
      std::snprintf(name, sizeof name, "%lldx%lldx%lld", static_cast<long long>(s.m),
                    static_cast<long long>(s.k), static_cast<long long>(s.n));
      std::printf("%-18s %3d %10.1f %10.1f %10.1f %10s %12.2f\n", name, threads,
                  flops / t_bough * 1e-9, flops / t_blas * 1e-9, flops / t_dnnl * 1e-9,
                  t_xsmm > 0 ? std::to_string(flops / t_xsmm * 1e-9).substr(0, 6).c_str() : "-",
                  t_bough * 1e6);
    }
  }
}
