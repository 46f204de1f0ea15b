// The float GEMM of kernels/gemm_f32.h (B packed, B unpacked for few rows, and through
// kernels::matmul's batches) against a plain triple loop in double, on random shapes with
// every edge: M, N, K in 1..40 (tile heights 6/8/16, panel widths 4/8/16/32/64), sizes past
// the kc blocks, B packed from its transpose, at 1 and 2 threads. Operands are uniform in
// [-1, 1]; a float sum of k products differs from the exact one by at most about
// k * FLT_EPSILON * sum |a_t b_t|, and the test allows (k + 2) * FLT_EPSILON * that sum.
// The kernel set picked at run time is checked against the CPU's own report.
#include "kernels/gemm_f32.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "kernels/broadcast.h"
#include "kernels/matmul.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

std::vector<float> random_vector(int64_t size, Rng& rng) {
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = static_cast<float>(rng.real(-1, 1));
  return v;
}

// Expects c (m x n) == a (m x k) · b (k x n) within the bound above.
void expect_product(const float* a, const float* b, const float* c, int64_t m, int64_t k,
                    int64_t n) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t t = 0; t < k; ++t) {
        sum += double{a[i * k + t]} * double{b[t * n + j]};
        magnitude += std::fabs(double{a[i * k + t]} * double{b[t * n + j]});
      }
      const double tol = static_cast<double>(k + 2) * FLT_EPSILON * magnitude;
      ASSERT_LE(std::fabs(c[i * n + j] - sum), tol)
          << "at (" << i << ", " << j << ") of " << m << "x" << k << "x" << n;
    }
}

// b (k x n) transposed to n x k.
std::vector<float> transposed(const std::vector<float>& b, int64_t k, int64_t n) {
  std::vector<float> t(b.size());
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j) t[j * k + i] = b[i * n + j];
  return t;
}

// One product by every entry point: packed from b and from bᵀ, and unpacked for few rows.
void check_shape(int64_t m, int64_t k, int64_t n, Rng& rng, util::ThreadPool& pool) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " on " +
               std::to_string(pool.threads()) + " threads");
  const std::vector<float> a = random_vector(m * k, rng), b = random_vector(k * n, rng);
  std::vector<float> c(static_cast<size_t>(m * n), NAN);
  gemm_f32(a.data(), k, PackedB(b.data(), k, n, false), c.data(), n, m, pool);
  expect_product(a.data(), b.data(), c.data(), m, k, n);
  std::fill(c.begin(), c.end(), NAN);
  gemm_f32(a.data(), k, PackedB(transposed(b, k, n).data(), k, n, true), c.data(), n, m, pool);
  expect_product(a.data(), b.data(), c.data(), m, k, n);
  if (m <= kFewRowsF32) {
    std::fill(c.begin(), c.end(), NAN);
    gemm_f32_few_rows(a.data(), k, b.data(), n, c.data(), n, m, k, n, pool);
    expect_product(a.data(), b.data(), c.data(), m, k, n);
  }
}

TEST(GemmF32, SmallShapesMatchReference) {
  Rng rng(31);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (int trial = 0; trial < 400; ++trial) {
      check_shape(rng.uniform(1, 40), rng.uniform(1, 40), rng.uniform(1, 40), rng, pool);
      if (HasFatalFailure()) return;
    }
  }
}

// Past the kc blocks (512 rows of k) and the blocks of 192 rows of a, many panels, and rows
// and columns enough to be split over two threads on both sides; one-row products of a wide b.
TEST(GemmF32, LargeOddShapesMatchReference) {
  Rng rng(32);
  const int64_t shapes[][3] = {{1, 768, 3072}, {2, 301, 515},  {3, 257, 97},
                               {97, 513, 129}, {300, 131, 7},  {5, 1000, 3},
                               {129, 65, 300}, {16, 512, 512}, {1, 70, 181}};
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (const auto& s : shapes) {
      check_shape(s[0], s[1], s[2], rng, pool);
      if (HasFatalFailure()) return;
    }
  }
}

// K = 0 gives zeros; M = 0 or N = 0 writes nothing.
// The cost rule's count: multiply-adds, or the bytes of B for a product of fewer than 4 rows,
// whose time is streaming B. A 1x256 by 256x256 product is half a thread's minimum in
// multiply-adds (2^16) but two in bytes of B (2^18): two threads' worth, not one.
TEST(GemmF32, FewRowProductsCountTheBytesOfB) {
  EXPECT_EQ(gemm_work(1, 256, 4096), 256 * 4096 * 4);
  EXPECT_EQ(gemm_work(3, 256, 4096), 256 * 4096 * 4);
  EXPECT_EQ(gemm_work(5, 256, 4096), 5 * 256 * 4096);
  EXPECT_EQ(gemm_work(64, 64, 64), 64 * 64 * 64);
  static_assert(util::kMinWorkPerThread == 1 << 17, "the counts below assume 2^17");
  util::ThreadPool pool(4);
  EXPECT_EQ(pool.threads_for(gemm_work(1, 256, 4096)), 4);
  EXPECT_EQ(pool.threads_for(gemm_work(1, 256, 256)), 2);
  EXPECT_EQ(pool.threads_for(gemm_work(1, 64, 256)), 1);
}

TEST(GemmF32, EmptyDimensions) {
  util::ThreadPool pool(2);
  std::vector<float> c(12, NAN);
  gemm_f32(nullptr, 0, PackedB(nullptr, 0, 4, false), c.data(), 4, 3, pool);
  for (float x : c) EXPECT_EQ(x, 0.0f);
  std::vector<float> b(8, 1.0f);
  gemm_f32(nullptr, 2, PackedB(b.data(), 2, 4, false), nullptr, 4, 0, pool);
  gemm_f32(b.data(), 2, PackedB(b.data(), 2, 0, false), nullptr, 0, 4, pool);
}

// Through kernels::matmul: batches of a over one shared b (stacked into one product),
// broadcast batch dims on either side, 1-D operands, a B too large for the kept scratch
// buffer, at 1 and 2 threads.
TEST(GemmF32, BatchedAndBroadcastMatMul) {
  Rng rng(33);
  const std::vector<std::pair<Dims, Dims>> cases = {
      {Dims{4, 7, 33}, Dims{33, 19}},       {Dims{3, 1, 2, 40}, Dims{5, 40, 17}},
      {Dims{2, 5, 64}, Dims{2, 64, 70}},    {Dims{1, 3, 9}, Dims{6, 9, 3}},
      {Dims{12, 16, 64}, Dims{12, 64, 16}}, {Dims{40}, Dims{3, 40, 21}},
      {Dims{2, 3, 30}, Dims{30}},           {Dims{2, 200, 64}, Dims{64, 200}},
      {Dims{5, 2100}, Dims{2100, 2100}}};  // B past the 16 MiB scratch kept per thread
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (const auto& [as, bs] : cases) {
      const Tensor a = test::random_floats(as, rng), b = test::random_floats(bs, rng);
      const Tensor got = matmul(a, b, pool);
      // The same product matrix by matrix: each of got's is checked with expect_product.
      const int64_t k = as.back(), n = bs.size() == 1 ? 1 : bs.back();
      const int64_t m = as.size() == 1 ? 1 : as[as.size() - 2];
      auto batch_of = [](const Dims& s) {
        return s.size() < 2 ? Dims{} : Dims(std::span<const int64_t>(s.data(), s.size() - 2));
      };
      const Dims batch_a = batch_of(as), batch_b = batch_of(bs);
      const Dims batch = broadcast_shape(batch_a, batch_b);
      SCOPED_TRACE(shape_string(as) + " x " + shape_string(bs));
      for (int64_t i = 0; i < batch.numel(); ++i) {
        const std::vector<int64_t> coord = test::unravel(i, batch);
        const int64_t ia = test::broadcast_source(coord, batch_a);
        const int64_t ib = test::broadcast_source(coord, batch_b);
        expect_product(a.data<float>() + ia * m * k, b.data<float>() + ib * k * n,
                       got.data<float>() + i * m * n, m, k, n);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// An attention block's products, batch by batch with a b per batch (each packed per call):
// Q·Kᵀ (120 x k by k x 120, k of 1..16: 120 columns are a partial last vector on every
// target) and its scores times V (120 x 120 by 120 x k), 1, 3 and 8 heads, on 1 to 3 threads.
TEST(GemmF32, AttentionShapedBatches) {
  Rng rng(36);
  for (int threads : {1, 2, 3}) {
    util::ThreadPool pool(threads);
    for (int64_t k = 1; k <= 16; ++k)
      for (int64_t heads : {1, 3, 8}) {
        for (const auto& [m, kk, n] : {std::array<int64_t, 3>{120, k, 120}, {120, 120, k}}) {
          const Tensor a = test::random_floats(Dims{1, heads, m, kk}, rng);
          const Tensor b = test::random_floats(Dims{1, heads, kk, n}, rng);
          const Tensor got = matmul(a, b, pool);
          SCOPED_TRACE(std::to_string(heads) + " heads of " + std::to_string(m) + "x" +
                       std::to_string(kk) + "x" + std::to_string(n) + " on " +
                       std::to_string(threads) + " threads");
          for (int64_t h = 0; h < heads; ++h)
            expect_product(a.data<float>() + h * m * kk, b.data<float>() + h * kk * n,
                           got.data<float>() + h * m * n, m, kk, n);
          if (HasFatalFailure()) return;
        }
      }
  }
}

// matmul_packed keeps a's leading dimensions and replaces the last by n.
TEST(GemmF32, PackedMatMulShapes) {
  Rng rng(34);
  util::ThreadPool pool(2);
  const Tensor b = test::random_floats(Dims{24, 10}, rng);
  const PackedB packed(b.data<float>(), 24, 10, false);
  for (const Dims& as : {Dims{24}, Dims{3, 24}, Dims{2, 5, 24}}) {
    const Tensor a = test::random_floats(as, rng);
    const Tensor got = matmul_packed(a, packed, pool);
    Dims want_shape = as;
    want_shape[want_shape.size() - 1] = 10;
    ASSERT_EQ(got.shape(), want_shape);
    expect_product(a.data<float>(), b.data<float>(), got.data<float>(), a.numel() / 24, 24, 10);
  }
  test::expect_bad_input([&] {
    matmul_packed(test::random_floats(Dims{3, 5}, rng), packed, pool);
  });
}

// Every kernel set compiled in and runnable here (AVX2's on an AVX-512 machine too), each
// picked in turn through Highway's test hook, on a sample of the shapes above.
TEST(GemmF32, EveryRunnableKernelSetMatchesReference) {
  Rng rng(35);
  util::ThreadPool pool(2);
  const std::vector<int64_t> targets = hwy::SupportedAndGeneratedTargets();
  std::set<std::string> picked;
  for (int64_t target : targets) {
    hwy::SetSupportedTargetsForTest(target);
    picked.emplace(gemm_kernel_set());
    SCOPED_TRACE(std::string(hwy::TargetName(target)) + " as " + std::string(gemm_kernel_set()));
    for (int trial = 0; trial < 60; ++trial)
      check_shape(rng.uniform(1, 40), rng.uniform(1, 40), rng.uniform(1, 40), rng, pool);
    check_shape(3, 300, 70, rng, pool);
    check_shape(67, 260, 45, rng, pool);
    if (HasFatalFailure()) break;
  }
  hwy::SetSupportedTargetsForTest(0);
  const auto has = [&](int64_t t) {
    return std::find(targets.begin(), targets.end(), t) != targets.end();
  };
  EXPECT_EQ(picked.count("avx2"), has(HWY_AVX2) ? 1u : 0u);
  EXPECT_EQ(picked.count("avx512"), has(HWY_AVX3) ? 1u : 0u);
}

// The picked kernel set is the widest this CPU reports: Highway's AVX-512 target needs F,
// VL, DQ and BW; its AVX2 target AVX2, FMA, F16C and BMI2.
TEST(GemmF32, KernelSetMatchesTheCpu) {
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi2");
  const std::string want = avx512 ? "avx512" : avx2 ? "avx2" : "sse4";
  EXPECT_EQ(gemm_kernel_set(), want);
}

}  // namespace
}  // namespace bough::kernels
