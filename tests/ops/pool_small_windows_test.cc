// MaxPool's 2 x 2, stride 2 path (the downsampling of CNNs, computed without the general
// window walk) against a reference loop on random odd and even sizes at 1 and 2 threads,
// and by hand for NaN and signed zeros, which it must treat as the general path does.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "model_builder.h"
#include "reference.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

test::Attrs halving(bool with_pads = false) {
  return [with_pads](onnxpb::NodeProto& n) {
    test::set_ints(n, "kernel_shape", {2, 2});
    test::set_ints(n, "strides", {2, 2});
    if (with_pads) test::set_ints(n, "pads", {0, 0, 1, 1});
  };
}

// y[p][i][j] = max of x[p][2i + a][2j + b] over the taps inside the image (a, b in {0, 1});
// `pad_end` one row and column of padding at the end (its taps never win).
std::vector<float> reference(const std::vector<float>& x, int64_t planes, int64_t H, int64_t W,
                             bool pad_end) {
  const int64_t OH = pad_end ? (H - 1) / 2 + 1 : H / 2, OW = pad_end ? (W - 1) / 2 + 1 : W / 2;
  std::vector<float> y;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        float m = -std::numeric_limits<float>::infinity();
        for (int64_t a = 0; a < 2; ++a)
          for (int64_t b = 0; b < 2; ++b)
            if (2 * i + a < H && 2 * j + b < W)
              m = std::max(m, x[((p * H) + 2 * i + a) * W + 2 * j + b]);
        y.push_back(m);
      }
  return y;
}

TEST(MaxPool2x2, MatchesAReferenceLoopAtOneAndTwoThreads) {
  test::Rng rng(2024);
  for (int trial = 0; trial < 12; ++trial) {
    SCOPED_TRACE(trial);
    const int64_t N = rng.uniform(1, 2), C = rng.uniform(1, 40), H = rng.uniform(2, 70),
                  W = rng.uniform(2, 70);
    const bool pad_end = trial % 3 == 2;  // the general path, for comparison
    const Tensor x = test::random_floats(Dims{N, C, H, W}, rng);
    const std::vector<float> want = reference(floats_of(x), N * C, H, W, pad_end);
    for (int threads : {1, 2}) {
      const auto y =
          test::run_node("MaxPool", {{"x", x}}, 1, halving(pad_end), 17, "max_pool_2x2", threads);
      EXPECT_EQ(floats_of(y[0]), want) << "threads " << threads;
    }
  }
}

// Windows (NaN, 1, 2, 3) -> 3 and (-0, +0, -1, NaN) -> -0: a NaN is dropped and of equal
// values the first in row-major order wins, as in the general path; the odd last column
// is left out.
TEST(MaxPool2x2, NanIsDroppedAndTheFirstOfEqualsWins) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = f32({1, 1, 2, 5}, {nan, 1, -0.0f, 0.0f, 7, 2, 3, -1, nan, 8});
  const auto y = test::run_node("MaxPool", {{"x", x}}, 1, halving(), 17, "max_pool_2x2_hand");
  const std::vector<float> got = floats_of(y[0]);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 3.0f);
  EXPECT_EQ(got[1], 0.0f);
  EXPECT_TRUE(std::signbit(got[1]));
}

}  // namespace
}  // namespace bough
