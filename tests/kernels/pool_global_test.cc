// kernels::sum_f32 (GlobalAveragePool's vectorized plane sum) against a sum in double, on
// lengths around the vector and four-vector steps (masked last loads), on every vector
// target, and with NaN and infinities: a NaN anywhere gives NaN, +inf and -inf together
// give NaN, one infinity gives it.
#include "kernels/pool_global.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <vector>

#include "on_every_target.h"
#include "reference.h"

namespace bough::kernels {
namespace {

void expect_sums(test::Rng& rng) {
  for (int64_t n = 0; n <= 140; ++n) {
    std::vector<float> v(static_cast<size_t>(n));
    double want = 0, magnitude = 0;
    for (float& f : v) {
      f = static_cast<float>(rng.real(-1, 1));
      want += f;
      magnitude += std::abs(f);
    }
    ASSERT_NEAR(sum_f32(v.data(), n), want, (n + 1) * FLT_EPSILON * magnitude) << "n " << n;
  }
}

TEST(PoolGlobal, SumMatchesADoubleSumOnEveryRunnableTarget) {
  test::Rng rng(342);
  test::on_every_target([&] { expect_sums(rng); });
}

TEST(PoolGlobal, SumKeepsNaNAndInfinities) {
  for (int64_t n : {1, 7, 33, 100}) {
    for (int64_t at = 0; at < n; at += 5) {
      std::vector<float> v(static_cast<size_t>(n), 1.0f);
      v[static_cast<size_t>(at)] = NAN;
      EXPECT_TRUE(std::isnan(sum_f32(v.data(), n))) << n << ", NaN at " << at;
      v[static_cast<size_t>(at)] = -INFINITY;
      EXPECT_EQ(sum_f32(v.data(), n), -INFINITY) << n << ", -inf at " << at;
      if (n - 1 - at == at) continue;
      v[static_cast<size_t>(n - 1 - at)] = INFINITY;
      EXPECT_TRUE(std::isnan(sum_f32(v.data(), n))) << n << ", +inf and -inf";
    }
  }
}

}  // namespace
}  // namespace bough::kernels
