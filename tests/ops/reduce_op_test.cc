// The Max and Min accumulators of the reductions (ops/onnx/reduce_op.h): NaN wins, and an
// empty set gives the far end of the type.
#include "ops/onnx/reduce_op.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

namespace bough::ops {
namespace {

template <typename R, typename T>
T fold(R r, std::initializer_list<T> values) {
  T acc = r.init();
  for (T v : values) acc = r.step(acc, v);
  return acc;
}

TEST(ExtremeReducer, MaxAndMinOfFloats) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(fold(MaxReducer<float>{}, {3.0f, -1.0f, 7.5f, 2.0f}), 7.5f);
  EXPECT_EQ(fold(MinReducer<float>{}, {3.0f, -1.0f, 7.5f, 2.0f}), -1.0f);
  EXPECT_EQ(MaxReducer<float>{}.init(), -inf);
  EXPECT_EQ(MinReducer<float>{}.init(), inf);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(fold(MaxReducer<float>{}, {1.0f, nan, 2.0f})));
  EXPECT_TRUE(std::isnan(fold(MinReducer<float>{}, {1.0f, nan, 2.0f})));
  EXPECT_TRUE(std::isnan(MaxReducer<float>{}.merge(5.0f, nan)));
  EXPECT_EQ(MinReducer<float>{}.merge(5.0f, 4.0f), 4.0f);
  EXPECT_EQ(MaxReducer<float>{}.merge(5.0f, 4.0f), 5.0f);
}

TEST(ExtremeReducer, MaxAndMinOfIntegersAndBool) {
  EXPECT_EQ(MaxReducer<int32_t>{}.init(), std::numeric_limits<int32_t>::lowest());
  EXPECT_EQ(MinReducer<uint8_t>{}.init(), 255);
  EXPECT_EQ(fold(MaxReducer<int32_t>{}, {-5, 9, 4}), 9);
  EXPECT_EQ(fold(MinReducer<int32_t>{}, {-5, 9, 4}), -5);
  EXPECT_EQ(fold(MaxReducer<bool>{}, {false, true, false}), true);
  EXPECT_EQ(fold(MinReducer<bool>{}, {true, false, true}), false);
}

}  // namespace
}  // namespace bough::ops
