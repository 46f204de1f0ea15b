// The bias that gemm_f32 adds in its store (kernels/gemm_f32.h) against its definition: the
// product without a bias, then bias[j] added to each element in a loop of its own (MatMul then
// Add). Bit for bit, NaN for NaN: the bias must come after the whole sum over k, so shapes
// past the kc blocks (k > 512) are among them, with narrow panels (n of 1..16), products of
// 1-3 rows (two panels at once), rows and panels split over 1, 2 and 4 threads, B packed from
// its transpose, on every kernel set this CPU runs; NaN and infinities planted in a, b and
// the bias; k = 0 (an empty sum: the bias alone, -0 added to +0 giving +0).
#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/gemm_f32.h"
#include "reference.h"
#include "same_bits.h"

namespace bough::kernels {
namespace {

using test::Rng;

constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> random_vector(int64_t size, Rng& rng) {
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = static_cast<float>(rng.real(-1, 1));
  return v;
}

// A few NaN, +inf and -inf at random places of v (none when v is empty).
void plant_non_finite(std::vector<float>& v, Rng& rng) {
  if (v.empty()) return;
  const float specials[] = {NAN, kInf, -kInf};
  for (float s : specials)
    if (rng.chance(0.5))
      v[static_cast<size_t>(rng.uniform(0, static_cast<int64_t>(v.size()) - 1))] = s;
}

void check_bias(int64_t m, int64_t k, int64_t n, bool transposed, bool non_finite, Rng& rng,
                util::ThreadPool& pool) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) +
               (transposed ? " from bT" : "") + (non_finite ? " with NaN/inf" : "") + " on " +
               std::to_string(pool.threads()) + " threads");
  std::vector<float> a = random_vector(m * k, rng), b = random_vector(k * n, rng);
  std::vector<float> bias = random_vector(n, rng);
  if (non_finite) {
    plant_non_finite(a, rng);
    plant_non_finite(b, rng);
    plant_non_finite(bias, rng);
  }
  std::vector<float> bt(b.size());
  for (int64_t i = 0; i < k; ++i)
    for (int64_t j = 0; j < n; ++j)
      bt[static_cast<size_t>(j * k + i)] = b[static_cast<size_t>(i * n + j)];
  const PackedB packed(transposed ? bt.data() : b.data(), k, n, transposed);
  std::vector<float> want(static_cast<size_t>(m * n), NAN), got(want.size(), NAN);
  gemm_f32(a.data(), k, packed, want.data(), n, m, pool);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      want[static_cast<size_t>(i * n + j)] += bias[static_cast<size_t>(j)];
  gemm_f32(a.data(), k, packed, got.data(), n, m, pool, bias.data());
  for (size_t i = 0; i < want.size(); ++i)
    ASSERT_TRUE(test::same_bits_or_nan(got[i], want[i]))
        << "at " << i << ": " << got[i] << " against " << want[i];
}

TEST(GemmBias, AddedInTheStoreAsAnAddAfterTheProduct) {
  Rng rng(3434);
  const int64_t shapes[][3] = {{120, 64, 661}, {1, 600, 37}, {2, 1100, 70}, {3, 70, 130},
                               {37, 513, 45},  {200, 40, 9}, {5, 64, 4},    {9, 64, 8},
                               {17, 8, 16},    {300, 20, 3}, {1, 1, 1},     {4, 530, 1000}};
  for (int threads : {1, 2, 4}) {
    util::ThreadPool pool(threads);
    for (const auto& s : shapes)
      for (bool non_finite : {false, true}) {
        check_bias(s[0], s[1], s[2], false, non_finite, rng, pool);
        if (HasFatalFailure()) return;
      }
    for (int trial = 0; trial < 60; ++trial) {
      check_bias(rng.uniform(1, 40), rng.uniform(1, 40), rng.uniform(1, 40), rng.chance(0.5),
                 rng.chance(0.5), rng, pool);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(GemmBias, EveryRunnableKernelSet) {
  Rng rng(3535);
  util::ThreadPool pool(2);
  for (int64_t target : hwy::SupportedAndGeneratedTargets()) {
    hwy::SetSupportedTargetsForTest(target);
    SCOPED_TRACE(hwy::TargetName(target));
    for (int trial = 0; trial < 30; ++trial)
      check_bias(rng.uniform(1, 40), rng.uniform(1, 40), rng.uniform(1, 40), false, true, rng,
                 pool);
    check_bias(3, 600, 70, false, true, rng, pool);
    check_bias(67, 530, 45, true, true, rng, pool);
    if (HasFatalFailure()) break;
  }
  hwy::SetSupportedTargetsForTest(0);
}

// k = 0: every element is 0 + bias[j], so a bias of -0 gives +0 and NaN stays NaN.
TEST(GemmBias, EmptySumIsTheBias) {
  util::ThreadPool pool(2);
  const std::vector<float> bias = {-0.0f, 2.5f, NAN, -kInf};
  std::vector<float> c(12, 7.0f);
  gemm_f32(nullptr, 0, PackedB(nullptr, 0, 4, false), c.data(), 4, 3, pool, bias.data());
  for (int64_t i = 0; i < 3; ++i) {
    EXPECT_EQ(c[static_cast<size_t>(i * 4)], 0.0f);
    EXPECT_FALSE(std::signbit(c[static_cast<size_t>(i * 4)]));
    EXPECT_EQ(c[static_cast<size_t>(i * 4 + 1)], 2.5f);
    EXPECT_TRUE(std::isnan(c[static_cast<size_t>(i * 4 + 2)]));
    EXPECT_EQ(c[static_cast<size_t>(i * 4 + 3)], -kInf);
  }
}

}  // namespace
}  // namespace bough::kernels
