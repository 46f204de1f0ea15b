// The float Conv paths of kernels/ (cache-sized tiles: conv_tiles.h; few output positions
// computed transposed with Wᵀ packed: conv_few_positions.h; stride-1 2-D computed directly:
// conv_direct.h, stride 1 or 2; Winograd: conv_winograd.h) against a plain loop in double
// over every output, filter tap and channel (conv_case.h), on random 1-D and 2-D shapes with
// strides, dilations, pads, groups, a bias and a fused activation, at 1 and 2 threads. The
// depthwise path's tests are in conv_depthwise_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernels/conv_case.h"
#include "on_every_target.h"

namespace bough::kernels {
namespace {

using namespace conv_test;  // NOLINT(google-build-using-namespace): the tests' shared kit

TEST(ConvPaths, TilesMatchAReferenceLoop) {
  Rng rng(131);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (int i = 0; i < 40; ++i) {
      const size_t rank = static_cast<size_t>(rng.uniform(1, 2));
      const int64_t groups = rng.uniform(1, 3), mg = rng.uniform(2, 20), cg = rng.uniform(1, 9);
      // Up to 2000 positions: several tiles, and a partial last one.
      const ConvCase c = random_case(rng, random_out(rng, rank, rank == 1 ? 2000 : 1200), 5,
                                     groups * cg, groups * mg, groups);
      SCOPED_TRACE(i);
      expect_conv(c, run_tiles(c, pool));
    }
  }
}

// A 1x1 conv of a small image is one tile, the image itself its column matrix: its product
// is split over the pool (64 -> 32 channels on 16x16: 2^19 multiply-adds, four threads'
// minimum) instead of running as the loop's one chunk. With the row counts around the
// GEMM's 24-row units.
TEST(ConvPaths, OneTilePointwiseSplitsItsProduct) {
  Rng rng(140);
  for (int threads : {1, 2, 3}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, M, size] :
         {std::tuple{64, 32, 16}, std::tuple{64, 50, 16}, std::tuple{40, 23, 20}}) {
      ConvCase c;
      c.C = C;
      c.M = M;
      c.win = resolve_window(WindowAttrs{}, std::vector<int64_t>{size, size},
                             std::vector<int64_t>{1, 1});
      ASSERT_TRUE(c.win.is_pointwise());
      c.x = random_vector(C * size * size, rng);
      c.w = random_vector(M * C, rng);
      c.bias = random_vector(M, rng);
      c.epilogue.activation = Activation::Relu;
      SCOPED_TRACE(testing::Message() << threads << " threads, " << C << " -> " << M);
      expect_conv(c, run_tiles(c, pool));
    }
  }
}

// A column matrix of at most 2 MiB is cut into one tile per thread, each a whole number of
// 32-position units (a recognizer's 1x3 conv of 1024 -> 64 channels over 120 positions:
// 3072 rows); a larger one into tiles of at most 64 KiB. Both at 1 to 3 threads, with a bias
// and an activation.
TEST(ConvPaths, TilesCutSmallColumnMatricesByThread) {
  Rng rng(141);
  for (int threads : {1, 2, 3}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, M, width, kernel] :
         {std::tuple{1024, 64, 120, 3}, std::tuple{40, 24, 70, 3}, std::tuple{64, 20, 1100, 9}}) {
      ConvCase c;
      c.C = C;
      c.M = M;
      WindowAttrs attrs;
      attrs.pads = {0, 1, 0, 1};
      c.win =
          resolve_window(attrs, std::vector<int64_t>{1, width}, std::vector<int64_t>{1, kernel});
      c.x = random_vector(C * width, rng);
      c.w = random_vector(M * C * kernel, rng);
      c.bias = random_vector(M, rng);
      c.epilogue.activation = Activation::HardSwish;
      SCOPED_TRACE(testing::Message() << threads << " threads, " << C << " -> " << M << " over "
                                      << width << ", 1x" << kernel);
      expect_conv(c, run_tiles(c, pool));
    }
  }
}

TEST(ConvPaths, FewPositionsMatchAReferenceLoop) {
  Rng rng(132);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (int i = 0; i < 40; ++i) {
      const size_t rank = static_cast<size_t>(rng.uniform(1, 2));
      const int64_t M = rng.uniform(kFewPositionsMinFilters, 70), C = rng.uniform(1, 4);
      const ConvCase c = random_case(rng, random_out(rng, rank, kFewPositionsOverGemmMax),
                                     rank == 1 ? 40 : 7, C, M, 1);
      SCOPED_TRACE(i);
      expect_conv(c, run_few_positions(c, pool));
    }
  }
}

// A convolution over a map of 1-3 positions per axis with pads up to the kernel's reach (3x3
// pads 1 over one row, 5x5 pads 2 over two: the taps of kernels/conv_crop.h that read only
// the padding), computed on each path that takes it with those taps cropped, against the
// reference loop over the whole kernel.
ConvCase small_map_case(Rng& rng) {
  ConvCase c;
  const size_t rank = static_cast<size_t>(rng.uniform(1, 2));
  WindowAttrs attrs;
  std::vector<int64_t> in, kernel, pe;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t k = rng.uniform(1, 5), dil = k > 1 ? rng.uniform(1, 2) : 1;
    const int64_t reach = (k - 1) * dil;
    int64_t size = rng.uniform(1, 3), pb = rng.uniform(0, reach), pad_end = rng.uniform(0, reach);
    if (size + pb + pad_end < reach + 1) pad_end = reach + 1 - size - pb;  // at least one output
    in.push_back(size);
    kernel.push_back(k);
    attrs.strides.push_back(rng.uniform(1, 3));
    attrs.dilations.push_back(dil);
    attrs.pads.push_back(pb);
    pe.push_back(pad_end);
  }
  attrs.pads.insert(attrs.pads.end(), pe.begin(), pe.end());
  c.win = resolve_window(attrs, in, kernel);
  return c;
}

TEST(ConvPaths, CroppedTapsGiveTheWholeKernelsOutputs) {
  Rng rng(144);
  int crops = 0;
  for (int threads : {1, 2, 4}) {
    util::ThreadPool pool(threads);
    for (int i = 0; i < 120 && !HasFatalFailure(); ++i) {
      ConvCase c = small_map_case(rng);
      const bool depthwise = c.win.rank() == 2 && rng.chance(0.3);
      c.groups = depthwise ? rng.uniform(1, 6) : rng.uniform(1, 3);
      c.C = depthwise ? c.groups : c.groups * rng.uniform(1, 6);
      c.M = c.groups * (depthwise ? rng.uniform(1, 2) : rng.uniform(1, 20));
      c.x = random_vector(c.C * c.win.in_numel(), rng);
      c.w = random_vector(c.M * (c.C / c.groups) * c.win.kernel_numel(), rng);
      if (rng.chance(0.7)) c.bias = random_vector(c.M, rng);
      c.epilogue = random_epilogue(rng);
      const TapCrop crop = dead_tap_crop(c.win);
      if (!crop.crops(c.win)) continue;
      ++crops;
      const ConvCase cut = cropped(c, crop);
      SCOPED_TRACE(testing::Message() << threads << " threads, case " << i << ", kernel "
                                      << c.win.kernel[0] << " -> " << cut.win.kernel[0]);
      if (c.M / c.groups > 1) expect_conv(c, run_tiles(cut, pool));
      if (c.groups == 1 && c.M >= kFewPositionsMinFilters)
        expect_conv(c, run_few_positions(cut, pool));
      if (conv_direct_pays(cut.win, c.C, c.groups)) expect_conv(c, run_direct(cut, pool));
      if (conv_depthwise_pays(cut.win, c.C, c.groups)) expect_conv(c, run_depthwise(cut, pool));
    }
  }
  EXPECT_GT(crops, 150);
}

// pad_planes writes every element of its window of the padded image, the image's values
// where they go and zeros around them, over a buffer holding NaNs (what an earlier, larger
// image may leave): windows of rows that start above, in and below the image, widths of
// whole vectors and of partial ones, pads of 0..3.
void expect_padded_planes(Rng& rng) {
  const int64_t C = rng.uniform(1, 3), IH = rng.uniform(1, 9), IW = rng.uniform(1, 40);
  const int64_t top = rng.uniform(0, 3), left = rng.uniform(0, 3);
  const int64_t height = IH + top + rng.uniform(0, 3), width = IW + left + rng.uniform(0, 3);
  const int64_t first_row = rng.uniform(0, height - 1);
  const int64_t rows = rng.uniform(1, height - first_row);
  const std::vector<float> x = random_vector(C * IH * IW, rng);
  std::vector<float> out(static_cast<size_t>(C * rows * width + 5), NAN);
  pad_planes(x.data(), C, IH, IW, top, left, first_row, rows, width, out.data());
  for (int64_t c = 0; c < C; ++c)
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t w = 0; w < width; ++w) {
        const int64_t ih = first_row + r - top, iw = w - left;
        const bool inside = ih >= 0 && ih < IH && iw >= 0 && iw < IW;
        const float want = inside ? x[static_cast<size_t>((c * IH + ih) * IW + iw)] : 0.0f;
        ASSERT_EQ(out[static_cast<size_t>((c * rows + r) * width + w)], want)
            << "plane " << c << ", row " << first_row + r << ", column " << w;
      }
  for (size_t k = static_cast<size_t>(C * rows * width); k < out.size(); ++k)
    ASSERT_TRUE(std::isnan(out[k])) << "wrote past the planes";
}

// pad_plane_split writes each padded row as its columns by phase (stride 2 or 3: even
// columns, then odd ones; or columns 0, 3, 6, ..., then 1, 4, ..., then 2, 5, ...) over a
// buffer holding NaNs: widths that the stride divides and that it does not, windows of rows
// that start above the image, in it (a negative `top`) and below it. It may write up to a
// vector (16 floats at the widest) past the last row, and no further.
void expect_split_plane(Rng& rng) {
  const int64_t IH = rng.uniform(1, 9), IW = rng.uniform(1, 80), s = rng.uniform(2, 3);
  const int64_t top = rng.uniform(-3, 3), left = rng.uniform(0, 3);
  const int64_t rows = rng.uniform(1, IH + 6), width = IW + left + rng.uniform(0, 3);
  const int64_t run = (width + s - 1) / s, plane = rows * s * run;
  constexpr int64_t kVector = 16;
  const std::vector<float> x = random_vector(IH * IW, rng);
  std::vector<float> out(static_cast<size_t>(plane + kVector + 5), NAN);
  pad_plane_split(x.data(), IH, IW, top, left, rows, s, run, true, out.data());
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t slot = 0; slot < s * run; ++slot) {
      const int64_t w = slot % run * s + slot / run;  // its padded column
      const int64_t ih = r - top, iw = w - left;
      const bool inside = w < width && ih >= 0 && ih < IH && iw >= 0 && iw < IW;
      const float want = inside ? x[static_cast<size_t>(ih * IW + iw)] : 0.0f;
      ASSERT_EQ(out[static_cast<size_t>(r * s * run + slot)], want)
          << "row " << r << ", column " << w << ", stride " << s;
    }
  for (size_t k = static_cast<size_t>(plane + kVector); k < out.size(); ++k)
    ASSERT_TRUE(std::isnan(out[k])) << "wrote more than a vector past the plane";
}

TEST(ConvPaths, PadPlaneSplitOnEveryRunnableTarget) {
  Rng rng(149);
  test::on_every_target([&] {
    for (int i = 0; i < 60 && !HasFatalFailure(); ++i) {
      SCOPED_TRACE(i);
      expect_split_plane(rng);
    }
  });
}

TEST(ConvPaths, PadPlanesOnEveryRunnableTarget) {
  Rng rng(139);
  test::on_every_target([&] {
    for (int i = 0; i < 60 && !HasFatalFailure(); ++i) {
      SCOPED_TRACE(i);
      expect_padded_planes(rng);
    }
  });
}

// `cases` random 2-D convolutions of strides 1 and 2 through the direct path: rows of 1..70
// positions (one vector or two, with partial steps, whose loads run past the row's end into
// the next row and, on the last row, into the padded image's slack; at column stride 2, past
// the even columns into the odd ones), odd and even padded widths, and 1..40 filters (whole
// and partial blocks of channels).
void expect_direct_on_random_cases(Rng& rng, int cases, util::ThreadPool& pool) {
  for (int i = 0; i < cases; ++i) {
    const int64_t M = rng.uniform(1, 40), C = rng.uniform(1, 4);
    ConvCase c = random_case(rng, {rng.uniform(1, 20), rng.uniform(1, 70)}, 5, C, M, 1);
    // The direct path takes strides of 1 and 2: the same case with such strides.
    WindowAttrs attrs;
    attrs.strides = {rng.uniform(1, 2), rng.uniform(1, 2)};
    attrs.dilations = c.win.dilation;
    attrs.pads = c.win.pad_begin;
    attrs.pads.insert(attrs.pads.end(), c.win.pad_end.begin(), c.win.pad_end.end());
    c.win = resolve_window(attrs, c.win.in, c.win.kernel);
    c.x = random_vector(C * c.win.in_numel(), rng);
    if (!conv_direct_pays(c.win, C, 1)) continue;  // too many taps, pointwise, 1-wide stride 2
    SCOPED_TRACE(i);
    expect_conv(c, run_direct(c, pool));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ConvPaths, DirectMatchesAReferenceLoop) {
  Rng rng(134);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    expect_direct_on_random_cases(rng, 60, pool);
  }
}

// The direct path's blocks and steps depend on the vector target (16 lanes and 32
// registers with AVX-512, 8 and 16 with AVX2): every target compiled in and runnable here,
// each picked in turn through Highway's test hook.
TEST(ConvPaths, DirectOnEveryRunnableTarget) {
  Rng rng(136);
  util::ThreadPool pool(2);
  test::on_every_target([&] { expect_direct_on_random_cases(rng, 30, pool); });
}

// `cases` random 3x3 stride-1 convolutions through the Winograd path, each by both tiles:
// odd and even output sizes of 1..20 (partial tiles, partial vectors of tiles), pads 0..2
// on each side, 1..40 filters. Winograd's transforms add rounding steps, which stay within
// the same bound as a direct sum: measured on these cases, at most 1.4 % of it for
// F(2x2, 3x3) (sums of up to 4 image values, of 9 halved weights, of 9 products) and 12 %
// for F(4x4, 3x3) (whose transforms scale by up to 8).
void expect_winograd_on_random_cases(Rng& rng, int cases, util::ThreadPool& pool) {
  for (int i = 0; i < cases; ++i) {
    ConvCase c;
    c.C = rng.uniform(kWinogradMinChannels, kWinogradMinChannels + 20);
    c.M = rng.uniform(1, 40);
    WindowAttrs attrs;
    for (int d = 0; d < 4; ++d) attrs.pads.push_back(rng.uniform(0, 2));
    const int64_t oh = rng.uniform(1, 20), ow = rng.uniform(1, 20);
    c.win = resolve_window(attrs,
                           std::vector<int64_t>{oh + 2 - attrs.pads[0] - attrs.pads[2],
                                                ow + 2 - attrs.pads[1] - attrs.pads[3]},
                           std::vector<int64_t>{3, 3});
    if (c.win.in[0] < 1 || c.win.in[1] < 1) continue;
    ASSERT_TRUE(conv_winograd_pays(c.win, c.C, 1));
    c.x = random_vector(c.C * c.win.in_numel(), rng);
    c.w = random_vector(c.M * c.C * 9, rng);
    if (rng.chance(0.7)) c.bias = random_vector(c.M, rng);
    c.epilogue = random_epilogue(rng);
    for (int64_t tile : {2, 4}) {
      SCOPED_TRACE(testing::Message() << "case " << i << ", tile " << tile);
      expect_conv(c, run_winograd(c, tile, pool));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

TEST(ConvPaths, WinogradMatchesAReferenceLoop) {
  Rng rng(137);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    expect_winograd_on_random_cases(rng, 40, pool);
  }
}

TEST(ConvPaths, WinogradOnEveryRunnableTarget) {
  Rng rng(138);
  util::ThreadPool pool(2);
  test::on_every_target([&] { expect_winograd_on_random_cases(rng, 15, pool); });
}

// Which 3x3 convolutions take the Winograd path: stride 1, no dilation, one group, enough
// input channels.
TEST(ConvPaths, WinogradTakesOnlyPlain3x3WithManyChannels) {
  WindowAttrs plain, strided, dilated;
  plain.pads = strided.pads = dilated.pads = {1, 1, 1, 1};
  strided.strides = {2, 2};
  dilated.dilations = {2, 2};
  const std::vector<int64_t> in{16, 16}, k3{3, 3}, k5{5, 5};
  const int64_t C = kWinogradMinChannels;
  EXPECT_TRUE(conv_winograd_pays(resolve_window(plain, in, k3), C, 1));
  EXPECT_FALSE(conv_winograd_pays(resolve_window(plain, in, k3), C - 1, 1));
  EXPECT_FALSE(conv_winograd_pays(resolve_window(plain, in, k3), 2 * C, 2));
  EXPECT_FALSE(conv_winograd_pays(resolve_window(plain, in, k5), C, 1));
  EXPECT_FALSE(conv_winograd_pays(resolve_window(strided, in, k3), C, 1));
  EXPECT_FALSE(conv_winograd_pays(resolve_window(dilated, in, k3), C, 1));
}

// F(4x4, 3x3) where its tiles fill the vectors (from 16x16 up: a whole vector of 4 tiles per
// tile row), on every target; F(2x2, 3x3) on a 4x4 output where vectors hold 4 floats or
// more (one 6x6 tile would leave most lanes empty; the scalar target has no lanes to leave
// empty, and takes F(4x4) there too).
TEST(ConvPaths, WinogradTakesLargerTilesOnLargerOutputs) {
  EXPECT_EQ(winograd_tile({4, 4}), 2);  // this CPU's best target: AVX2 or wider
  test::on_every_target([] {
    for (int64_t side : {16, 32, 64}) EXPECT_EQ(winograd_tile({side, side}), 4) << side;
    EXPECT_EQ(winograd_form({32, 32}).tile, 4);
  });
}

// A 3x3 Conv + Relu layer with bias and pads 1, C -> M channels on a size x size image of
// random values, at `stride`.
ConvCase image_layer(int64_t C, int64_t M, int64_t size, Rng& rng, int64_t stride = 1) {
  WindowAttrs attrs;
  attrs.pads = {1, 1, 1, 1};
  attrs.strides = {stride, stride};
  ConvCase c;
  c.C = C;
  c.M = M;
  c.win = resolve_window(attrs, std::vector<int64_t>{size, size}, std::vector<int64_t>{3, 3});
  c.x = random_vector(C * size * size, rng);
  c.w = random_vector(M * C * 9, rng);
  c.bias = random_vector(M, rng);
  c.epilogue.activation = Activation::Relu;
  return c;
}

// bench's small_cnn's 3x3 layers (3, 16 and 32 input channels, pads 1), and 576 taps (the
// most the direct path takes) with a partial block of output channels; each at stride 1 and
// at stride 2 (a CNN's stem: 3 -> 16 channels, 3x3, stride 2), on odd and even sizes.
TEST(ConvPaths, DirectOfImageNetworkLayers) {
  Rng rng(135);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (int64_t stride : {1, 2})
      for (const auto& [C, M, size] :
           {std::tuple{3, 16, 64}, std::tuple{3, 16, 47}, std::tuple{16, 32, 32},
            std::tuple{32, 64, 16}, std::tuple{64, 21, 9}}) {
        SCOPED_TRACE(testing::Message() << C << " -> " << M << " on " << size << ", stride "
                                        << stride << ", " << threads << " threads");
        const ConvCase c = image_layer(C, M, size, rng, stride);
        ASSERT_TRUE(conv_direct_pays(c.win, C, 1));
        expect_conv(c, run_direct(c, pool));
      }
  }
}

// bench's small_cnn's Winograd layers (16 -> 32 channels on 32x32, 32 -> 64 on 16x16) and
// 32 -> 50 on 16x16 (a partial block of output channels), by both tiles. At 2 and 3
// threads the 16x16 outputs by 4x4 tiles are split by blocks of output channels (their 16
// tiles are one AVX-512 vector), the others by bands of tile rows.
TEST(ConvPaths, WinogradOfImageNetworkLayers) {
  Rng rng(139);
  for (int threads : {1, 2, 3}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, M, size] :
         {std::tuple{16, 32, 32}, std::tuple{32, 64, 16}, std::tuple{32, 50, 16}}) {
      const ConvCase c = image_layer(C, M, size, rng);
      for (int64_t tile : {2, 4}) {
        SCOPED_TRACE(testing::Message() << threads << " threads, " << C << " -> " << M << " on "
                                        << size << ", tile " << tile);
        expect_conv(c, run_winograd(c, tile, pool));
      }
    }
  }
}

// Where the transposed form is taken: up to 16 positions on any path; up to 24 where the
// tiles or pointwise path would run its GEMM on panels the positions fill in part, and not in
// place of the direct or Winograd path.
TEST(ConvPaths, FewPositionsPayUpToSixteenPositionsOrTwentyFourInPlaceOfAGemm) {
  const auto window = [](int64_t H, int64_t W, int64_t k) {
    WindowAttrs attrs;
    const int64_t pad = k / 2;
    attrs.pads = {pad, pad, pad, pad};
    return resolve_window(attrs, std::vector<int64_t>{H, W}, std::vector<int64_t>{k, k});
  };
  for (int64_t W : {1, 16, 20, 24})
    EXPECT_TRUE(conv_few_positions_pays(window(1, W, 1), 512, 64, 1));
  for (int64_t W : {25, 32}) EXPECT_FALSE(conv_few_positions_pays(window(1, W, 1), 512, 64, 1));
  // SVTR's 3x3 over one row, its outer rows cropped (kernels/conv_crop.h): a 1x3 window.
  WindowAttrs row;
  row.pads = {0, 1, 0, 1};
  const Window cropped =
      resolve_window(row, std::vector<int64_t>{1, 20}, std::vector<int64_t>{1, 3});
  EXPECT_TRUE(conv_few_positions_pays(cropped, 1024, 64, 1));
  // A 3x3 of 96 channels: the Winograd path from 17 positions on.
  ASSERT_TRUE(conv_winograd_pays(window(4, 6, 3), 96, 1));
  EXPECT_FALSE(conv_few_positions_pays(window(4, 6, 3), 96, 24, 1));
  EXPECT_TRUE(conv_few_positions_pays(window(4, 4, 3), 96, 24, 1));
  // Grouped, or fewer than 16 filters: never.
  EXPECT_FALSE(conv_few_positions_pays(window(1, 8, 1), 512, 64, 2));
  EXPECT_FALSE(conv_few_positions_pays(window(1, 8, 1), 512, 15, 1));
}

// The 1x1 layers of det_32x128's last stages (bench/make-cnn-models): many channels over
// 1-16 positions, where the transposed column matrix is the image transposed, and its 3x3
// layers of 96 channels over a 2x8 map; SVTR's 1x1 layers over 1 x 20 positions; every
// activation, 1, 2 and 4 threads.
TEST(ConvPaths, FewPositionsOfManyChannels) {
  Rng rng(134);
  struct Layer {
    int64_t C, M, H, W, k, pad;
  };
  const Layer layers[] = {{256, 256, 2, 8, 1, 0}, {128, 256, 2, 8, 1, 0}, {512, 512, 1, 4, 1, 0},
                          {256, 64, 1, 1, 1, 0},  {64, 256, 1, 1, 1, 0},  {96, 24, 2, 8, 3, 1},
                          {37, 19, 3, 5, 1, 0},   {96, 24, 1, 4, 3, 1},   {512, 64, 1, 20, 1, 0},
                          {64, 512, 1, 20, 1, 0}};
  for (int threads : {1, 2, 4}) {
    util::ThreadPool pool(threads);
    for (const Layer& l : layers) {
      ConvCase c;
      c.C = l.C;
      c.M = l.M;
      WindowAttrs attrs;
      attrs.pads = {l.pad, l.pad, l.pad, l.pad};
      c.win = resolve_window(attrs, std::vector<int64_t>{l.H, l.W}, std::vector<int64_t>{l.k, l.k});
      ASSERT_TRUE(conv_few_positions_pays(c.win, c.C, c.M, 1));
      ASSERT_EQ(c.win.is_pointwise(), l.k == 1);
      c.x = random_vector(c.C * c.win.in_numel(), rng);
      c.w = random_vector(c.M * c.C * c.win.kernel_numel(), rng);
      if (rng.chance(0.7)) c.bias = random_vector(c.M, rng);
      c.epilogue = random_epilogue(rng);
      SCOPED_TRACE(testing::Message() << threads << " threads, " << l.C << " -> " << l.M << " on "
                                      << l.H << "x" << l.W << ", " << l.k << "x" << l.k);
      expect_conv(c, run_few_positions(c, pool));
    }
  }
}

// The STFT of bench's vad_lstm (258 filters of 256 taps, stride 64, 5 frames), and more
// taps than one k block of the packed filter holds.
TEST(ConvPaths, FewPositionsOfLongFilters) {
  Rng rng(133);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, M, taps] : {std::tuple{1, 258, 256}, std::tuple{3, 40, 700}}) {
      ConvCase c;
      c.C = C;
      c.M = M;
      WindowAttrs attrs;
      attrs.strides = {64};
      attrs.pads = {32, 32};
      c.win = resolve_window(attrs, std::vector<int64_t>{taps + 192}, std::vector<int64_t>{taps});
      ASSERT_EQ(c.win.out_numel(), 5);
      c.x = random_vector(C * c.win.in_numel(), rng);
      c.w = random_vector(M * C * taps, rng);
      c.bias = random_vector(M, rng);
      c.epilogue.activation = Activation::Relu;
      expect_conv(c, run_few_positions(c, pool));
    }
  }
}

}  // namespace
}  // namespace bough::kernels
