// The fast float tanh against libm's, over the whole float range that matters.
#include "kernels/fast_math.h"

#include <gtest/gtest.h>

#include <cmath>

namespace bough::kernels {
namespace {

TEST(FastTanh, WithinOneMillionthOfLibm) {
  double worst = 0;
  for (float x = -12.0f; x <= 12.0f; x += 0.0007f)
    worst = std::max(
        worst, std::fabs(static_cast<double>(fast_tanh(x)) - std::tanh(static_cast<double>(x))));
  EXPECT_LT(worst, 1e-6);
}

TEST(FastTanh, EdgeValues) {
  EXPECT_EQ(fast_tanh(0.0f), 0.0f);
  EXPECT_EQ(fast_tanh(1e-30f), 1e-30f);  // tiny inputs are returned exactly
  EXPECT_NEAR(fast_tanh(INFINITY), 1.0f, 1e-6f);
  EXPECT_NEAR(fast_tanh(-INFINITY), -1.0f, 1e-6f);
  EXPECT_TRUE(std::isnan(fast_tanh(NAN)));
}

}  // namespace
}  // namespace bough::kernels
