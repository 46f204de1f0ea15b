// ops::normalize_groups, the normalization of GroupNormalization and InstanceNormalization,
// on values worked out by hand.
#include "ops/onnx/group_norm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model_builder.h"

namespace bough::ops {
namespace {

using test::f32;
using test::floats_of;

TEST(NormalizeGroups, OneGroupPerChannelAndOneForAll) {
  util::ThreadPool pool(1);
  // x [1, 2, 2]: channel 0 holds (1, 3), channel 1 holds (5, 7). epsilon 0.
  const Tensor x = f32({1, 2, 2}, {1, 3, 5, 7});
  const Tensor scale = f32({2}, {1, 2}), bias = f32({2}, {0, 1});
  // Two groups (one per channel): means 2 and 6, variances 1: (-1, 1) and (-1, 1) * 2 + 1.
  EXPECT_EQ(floats_of(normalize_groups(x, scale, bias, 2, true, 0.0, pool, "test")),
            (std::vector<float>{-1, 1, -1, 3}));
  // One group: mean 4, variance (9 + 1 + 1 + 9) / 4 = 5; scale and bias per channel.
  const float r = 1 / std::sqrt(5.0f);
  const std::vector<float> y =
      floats_of(normalize_groups(x, scale, bias, 1, true, 0.0, pool, "test"));
  const std::vector<float> want{-3 * r, -1 * r, 2 * r + 1, 6 * r + 1};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(y[i], want[i], 1e-6) << i;
  // One group, scale and bias per group (opset 18): the first entries apply to all.
  const std::vector<float> z =
      floats_of(normalize_groups(x, f32({1}, {2}), f32({1}, {1}), 1, false, 0.0, pool, "test"));
  const std::vector<float> want_z{-6 * r + 1, -2 * r + 1, 2 * r + 1, 6 * r + 1};
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(z[i], want_z[i], 1e-6) << i;
}

TEST(NormalizeGroups, Float16GoesThroughFloat) {
  util::ThreadPool pool(1);
  const Tensor x = kernels::cast(f32({1, 2, 2}, {1, 3, 5, 7}), ElemType::Float16);
  const Tensor s = kernels::cast(f32({2}, {1, 2}), ElemType::Float16);
  const Tensor b = kernels::cast(f32({2}, {0, 1}), ElemType::Float16);
  const Tensor y = normalize_groups(x, s, b, 2, true, 0.0, pool, "test");
  ASSERT_EQ(y.type(), ElemType::Float16);
  EXPECT_EQ(test::doubles_of(y), (std::vector<double>{-1, 1, -1, 3}));  // as above, exact
}

}  // namespace
}  // namespace bough::ops
