// Nearest resampling by whole repeats (kernels/resample_repeat.h): where it applies (x2, x4,
// x3 on the last two axes in the coordinate and rounding modes whose taps are o / r), the
// same bits as the general path (resample()) on random shapes and element types, with NaN and
// infinities, at 1 and 2 threads; where it does not (round_prefer_ceil or ceil with
// asymmetric, a scale that is not a whole number, linear mode, a resized leading axis), it
// declines. And the Resize operator by hand at x2 (paddle2onnx's asymmetric / floor) and at x4 with
// round_prefer_floor, whose source indices are not o / 4.
#include "kernels/resample_repeat.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kernels/convert.h"
#include "model_builder.h"
#include "reference.h"

namespace bough {
namespace {

using kernels::CoordMode;
using kernels::NearestRound;
using test::f32;
using test::floats_of;

kernels::ResampleSpec nearest(CoordMode coord, NearestRound round) {
  kernels::ResampleSpec s;
  s.coord = coord;
  s.nearest = round;
  return s;
}

// x (rank 3 or 4) resized by (rh, rw) on its last two axes through both paths.
struct Both {
  std::optional<Tensor> fast;
  Tensor general;
};

Both resize_both(const Tensor& x, const kernels::ResampleSpec& spec, double rh, double rw,
                 util::ThreadPool& pool) {
  const size_t r = x.rank();
  std::vector<int64_t> out(x.shape().begin(), x.shape().end());
  std::vector<double> scales(r, 1.0);
  scales[r - 2] = rh, scales[r - 1] = rw;
  out[r - 2] = static_cast<int64_t>(std::floor(static_cast<double>(x.dim(r - 2)) * rh));
  out[r - 1] = static_cast<int64_t>(std::floor(static_cast<double>(x.dim(r - 1)) * rw));
  return {kernels::resample_by_repeats(x, spec, out, scales, {}, pool),
          kernels::resample(x, spec, out, scales, {}, 0.0, pool)};
}

TEST(ResampleRepeat, SameBitsAsTheGeneralPathWhereItApplies) {
  test::Rng rng(77);
  // Modes whose x2 and x4 taps are o / r (pytorch_half_pixel too while the output is > 1).
  const std::pair<CoordMode, NearestRound> modes[] = {
      {CoordMode::Asymmetric, NearestRound::Floor},
      {CoordMode::HalfPixel, NearestRound::PreferFloor},
      {CoordMode::HalfPixel, NearestRound::PreferCeil},
      {CoordMode::PytorchHalfPixel, NearestRound::PreferFloor},
      {CoordMode::Asymmetric, NearestRound::Simple}};
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (int trial = 0; trial < 40; ++trial) {
      SCOPED_TRACE(trial);
      const auto [coord, round] = modes[trial % 5];
      const double rh = static_cast<double>(rng.uniform(1, 4)),
                   rw = static_cast<double>(rng.uniform(1, 4));
      if (rh == 1 && rw == 1) continue;
      std::vector<int64_t> dims{rng.uniform(1, 2), rng.uniform(1, 5), rng.uniform(1, 9),
                                rng.uniform(2, 40)};
      if (trial % 4 == 3) dims.erase(dims.begin());
      Tensor x = test::random_floats(Dims(dims), rng);
      x.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
      x.data<float>()[x.numel() - 1] = -std::numeric_limits<float>::infinity();
      const Both b = resize_both(x, nearest(coord, round), rh, rw, pool);
      ASSERT_TRUE(b.fast.has_value());
      EXPECT_TRUE(test::bitwise_equal(*b.fast, b.general));
    }
    // Other element types: int64, uint8, float16 (as bits), bool.
    for (ElemType t : {ElemType::Int64, ElemType::UInt8, ElemType::Float16, ElemType::Bool}) {
      const Tensor x = test::tensor_of<uint8_t>(
          ElemType::UInt8, Dims{1, 3, 5, 7}, [](int64_t i) { return static_cast<uint8_t>(i % 2); });
      const Tensor xt = t == ElemType::UInt8 ? x : kernels::cast(x, t);
      const Both b =
          resize_both(xt, nearest(CoordMode::Asymmetric, NearestRound::Floor), 2, 2, pool);
      ASSERT_TRUE(b.fast.has_value());
      EXPECT_TRUE(test::bitwise_equal(*b.fast, b.general)) << elem_name(t);
    }
  }
}

TEST(ResampleRepeat, DeclinesWhereTheTapsAreNotWholeRepeats) {
  util::ThreadPool pool(1);
  test::Rng rng(78);
  const Tensor x = test::random_floats(Dims{1, 2, 4, 6}, rng);
  // asymmetric x2 with round_prefer_ceil reads o / 2 rounded up (the last column clamped).
  EXPECT_FALSE(resize_both(x, nearest(CoordMode::Asymmetric, NearestRound::PreferCeil), 2, 2, pool)
                   .fast.has_value());
  // asymmetric x2 with ceil reads o / 2 rounded up.
  EXPECT_FALSE(resize_both(x, nearest(CoordMode::Asymmetric, NearestRound::Ceil), 2, 2, pool)
                   .fast.has_value());
  EXPECT_FALSE(resize_both(x, nearest(CoordMode::Asymmetric, NearestRound::Floor), 1.5, 2, pool)
                   .fast.has_value());
  kernels::ResampleSpec linear = nearest(CoordMode::Asymmetric, NearestRound::Floor);
  linear.mode = kernels::Interp::Linear;
  EXPECT_FALSE(resize_both(x, linear, 2, 2, pool).fast.has_value());
  // A resized channel axis: the general path.
  const std::vector<int64_t> out{1, 4, 8, 12};
  const std::vector<double> scales{1, 2, 2, 2};
  EXPECT_FALSE(kernels::resample_by_repeats(x, nearest(CoordMode::Asymmetric, NearestRound::Floor),
                                            out, scales, {}, pool)
                   .has_value());
}

test::Attrs resize_attrs(const std::string& coord, const std::string& round) {
  return [coord, round](onnxpb::NodeProto& n) {
    test::set_string(n, "mode", "nearest");
    test::set_string(n, "coordinate_transformation_mode", coord);
    test::set_string(n, "nearest_mode", round);
  };
}

// x = [[1, 2], [3, 4]] (1 x 1 x 2 x 2). x2 asymmetric / floor: each value in a 2 x 2 block.
// x4 asymmetric / round_prefer_floor: source column of o is round(o / 4) with halves down:
// o = 0..7 -> 0, 0, 0, 1, 1, 1, 1, 1 (o = 7: 1.75 -> 2, clamped to 1); the same for rows.
TEST(ResampleRepeat, ResizeOperatorByHand) {
  const Tensor x = f32({1, 1, 2, 2}, {1, 2, 3, 4});
  for (int threads : {1, 2}) {
    const auto y2 = test::run_node(
        "Resize", {{"x", x}, {"roi", f32({0}, {})}, {"scales", f32({4}, {1, 1, 2, 2})}}, 1,
        resize_attrs("asymmetric", "floor"), 11, "resize_x2", threads);
    EXPECT_EQ(floats_of(y2[0]),
              (std::vector<float>{1, 1, 2, 2, 1, 1, 2, 2, 3, 3, 4, 4, 3, 3, 4, 4}));
    const auto y4 = test::run_node(
        "Resize", {{"x", x}, {"roi", f32({0}, {})}, {"scales", f32({4}, {1, 1, 4, 4})}}, 1,
        resize_attrs("asymmetric", "round_prefer_floor"), 11, "resize_x4", threads);
    const int src[8] = {0, 0, 0, 1, 1, 1, 1, 1};
    std::vector<float> want;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) want.push_back(static_cast<float>(1 + 2 * src[i] + src[j]));
    EXPECT_EQ(floats_of(y4[0]), want);
  }
}

}  // namespace
}  // namespace bough
