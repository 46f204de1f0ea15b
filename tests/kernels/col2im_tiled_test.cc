// col2im_tiled (kernels/conv_im2col.h: ConvTranspose with stride == kernel writes each
// output once, with its bias) against col2im_add into zeros plus the bias, on random 1-D to
// 3-D tilings (kernels 1..3 per dimension, rows of up to 70 positions, some tiles of
// positions), and by hand; and which windows tile an image.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/conv_im2col.h"
#include "reference.h"

namespace bough::kernels {
namespace {

// The window of a ConvTranspose with stride == kernel: the image is its output.
Window tiling(const std::vector<int64_t>& positions, const std::vector<int64_t>& kernel) {
  WindowAttrs attrs;
  attrs.strides = kernel;
  std::vector<int64_t> in;
  for (size_t d = 0; d < kernel.size(); ++d) in.push_back(positions[d] * kernel[d]);
  return resolve_window(attrs, in, kernel);
}

TEST(Col2imTiled, MatchesAddingIntoZerosPlusTheBias) {
  test::Rng rng(341);
  for (int threads : {1, 2, 4}) {
    util::ThreadPool pool(threads);
    for (int i = 0; i < 40; ++i) {
      const size_t rank = static_cast<size_t>(rng.uniform(1, 3));
      std::vector<int64_t> positions, kernel;
      for (size_t d = 0; d < rank; ++d) {
        // The last axis up to 70 positions: rows of whole vectors and a partial one.
        positions.push_back(rng.uniform(1, d + 1 == rank ? 70 : 9));
        kernel.push_back(rng.uniform(1, 3));
      }
      const Window w = tiling(positions, kernel);
      ASSERT_TRUE(window_tiles_image(w));
      const int64_t channels = rng.uniform(1, 5), K = w.kernel_numel(), P = w.out_numel();
      std::vector<float> col(static_cast<size_t>(channels * K * P)), bias;
      for (float& v : col) v = static_cast<float>(rng.real(-1, 1));
      if (i % 4 == 0) col[static_cast<size_t>(rng.uniform(0, channels * K * P - 1))] = NAN;
      if (rng.chance(0.7))
        for (int64_t c = 0; c < channels; ++c) bias.push_back(static_cast<float>(rng.real(-1, 1)));
      std::vector<float> want(static_cast<size_t>(channels * w.in_numel()), 0.0f);
      col2im_add(col.data(), channels, w, 0, P, want.data(), pool);
      if (!bias.empty())
        for (size_t j = 0; j < want.size(); ++j)
          want[j] += bias[j / static_cast<size_t>(w.in_numel())];
      // The output left as NaN: every element must be written. In tiles of positions, the
      // column matrix of each tile on its own, as conv_transpose.cc calls it.
      std::vector<float> got(want.size(), NAN);
      const int64_t tile = rng.uniform(1, P);
      for (int64_t p0 = 0; p0 < P; p0 += tile) {
        const int64_t p1 = std::min(P, p0 + tile);
        std::vector<float> part;
        for (int64_t row = 0; row < channels * K; ++row)
          part.insert(part.end(), col.begin() + row * P + p0, col.begin() + row * P + p1);
        col2im_tiled(part.data(), channels, w, p0, p1, bias.empty() ? nullptr : bias.data(),
                     got.data(), pool);
      }
      for (size_t j = 0; j < want.size(); ++j) {
        SCOPED_TRACE(testing::Message() << "case " << i << ", element " << j);
        if (std::isnan(want[j])) {
          ASSERT_TRUE(std::isnan(got[j])) << got[j];
        } else {
          ASSERT_EQ(got[j], want[j]);
        }
      }
    }
  }
}

// A 2x2 stride-2 upsampling of a 2x2 plane (1, 2; 3, 4) by taps (1, 10; 100, 1000), bias
// 0.5: each input spreads into its 2x2 block, row by row.
TEST(Col2imTiled, TwoByTwoByHand) {
  util::ThreadPool pool(1);
  const Window w = tiling({2, 2}, {2, 2});
  // Column matrix rows: taps (0,0), (0,1), (1,0), (1,1); columns: the 4 positions.
  std::vector<float> col;
  for (float tap : {1.0f, 10.0f, 100.0f, 1000.0f})
    for (float x : {1.0f, 2.0f, 3.0f, 4.0f}) col.push_back(tap * x);
  const float bias = 0.5f;
  std::vector<float> y(16, NAN);
  col2im_tiled(col.data(), 1, w, 0, 4, &bias, y.data(), pool);
  EXPECT_EQ(y, (std::vector<float>{1.5, 10.5, 2.5, 20.5,          //
                                   100.5, 1000.5, 200.5, 2000.5,  //
                                   3.5, 30.5, 4.5, 40.5,          //
                                   300.5, 3000.5, 400.5, 4000.5}));
}

// Overlapping windows (stride below the kernel), gaps (above it), dilation, padding and an
// output_padding's extra row are not tilings.
TEST(Col2imTiled, OnlyExactTilingsQualify) {
  EXPECT_TRUE(window_tiles_image(tiling({3, 4}, {2, 2})));
  EXPECT_TRUE(window_tiles_image(tiling({5}, {1})));
  WindowAttrs overlap;
  overlap.strides = {1, 1};
  EXPECT_FALSE(window_tiles_image(
      resolve_window(overlap, std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 2})));
  WindowAttrs gap;
  gap.strides = {3, 3};
  EXPECT_FALSE(window_tiles_image(
      resolve_window(gap, std::vector<int64_t>{6, 6}, std::vector<int64_t>{2, 2})));
  WindowAttrs dilated;
  dilated.strides = {2, 2};
  dilated.dilations = {2, 2};
  EXPECT_FALSE(window_tiles_image(
      resolve_window(dilated, std::vector<int64_t>{6, 6}, std::vector<int64_t>{2, 2})));
  WindowAttrs padded;
  padded.strides = {2, 2};
  padded.pads = {1, 1, 1, 1};
  EXPECT_FALSE(window_tiles_image(
      resolve_window(padded, std::vector<int64_t>{4, 4}, std::vector<int64_t>{2, 2})));
  WindowAttrs extra;  // a 5-row image of 2 positions by stride 2: its last row uncovered
  extra.strides = {2, 2};
  EXPECT_FALSE(window_tiles_image(
      resolve_window(extra, std::vector<int64_t>{5, 4}, std::vector<int64_t>{2, 2})));
}

}  // namespace
}  // namespace bough::kernels
