// The float Conv paths of kernels/ (cache-sized tiles: conv_tiles.h; few output positions
// computed transposed with Wᵀ packed: conv_few_positions.h; stride-1 2-D computed directly:
// conv_direct.h, stride 1 or 2; depthwise 2-D: conv_depthwise.h) against a plain loop in double
// over every output, filter tap and channel, on random 1-D and 2-D shapes with strides,
// dilations, pads, groups, a bias and a fused activation, at 1 and 2 threads. Operands are
// uniform in [-1, 1]; a float sum of n products differs from the exact one by at most about
// n * FLT_EPSILON * sum |x w|, and the tests allow (n + 2) times that.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <vector>

#include "kernels/conv_crop.h"
#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_few_positions.h"
#include "kernels/conv_tiles.h"
#include "kernels/conv_winograd.h"
#include "on_every_target.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

struct ConvCase {
  Window win;
  int64_t C = 1, M = 1, groups = 1;
  std::vector<float> x, w, bias;
  ConvEpilogue epilogue;
};

std::vector<float> random_vector(int64_t size, Rng& rng) {
  std::vector<float> v(static_cast<size_t>(size));
  for (float& x : v) x = static_cast<float>(rng.real(-1, 1));
  return v;
}

// Any activation: those the direct and Winograd kernels apply in registers and those they
// apply over each row after it (ConvEpilogue::in_registers).
ConvEpilogue random_epilogue(Rng& rng) {
  const Activation acts[] = {Activation::None,      Activation::Relu,
                             Activation::LeakyRelu, Activation::Clip,
                             Activation::Sigmoid,   Activation::HardSigmoid,
                             Activation::HardSwish, Activation::ClipHardSwish};
  ConvEpilogue e;
  e.activation = acts[rng.uniform(0, 7)];
  e.alpha = e.activation == Activation::Clip ? -0.5f : 0.1f;
  e.beta = 0.5f;
  return e;
}

// A case whose output has the sizes `out` (one per spatial dimension), with random kernel
// sizes up to max_kernel, strides, dilations and pads; the input size follows from them.
ConvCase random_case(Rng& rng, const std::vector<int64_t>& out, int64_t max_kernel, int64_t C,
                     int64_t M, int64_t groups) {
  ConvCase c;
  c.C = C;
  c.M = M;
  c.groups = groups;
  WindowAttrs attrs;
  std::vector<int64_t> in, kernel;
  const size_t rank = out.size();
  attrs.pads.resize(2 * rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t k = rng.uniform(1, max_kernel), s = rng.uniform(1, 3),
                  dil = k > 1 ? rng.uniform(1, 2) : 1;
    int64_t pb = rng.uniform(0, std::min<int64_t>(2, (k - 1) * dil)), pe = rng.uniform(0, pb);
    // The input that gives `out[d]` positions (plus a remainder the last stride skips).
    int64_t size = (out[d] - 1) * s + (k - 1) * dil + 1 - pb - pe;
    if (size < 1) {  // windows reaching into the padding only: no padding then
      pb = pe = 0;
      size = (out[d] - 1) * s + (k - 1) * dil + 1;
    }
    in.push_back(size + rng.uniform(0, s - 1));
    kernel.push_back(k);
    attrs.strides.push_back(s);
    attrs.dilations.push_back(dil);
    attrs.pads[d] = pb;
    attrs.pads[rank + d] = pe;
  }
  c.win = resolve_window(attrs, in, kernel);
  EXPECT_EQ(c.win.out, out);
  c.x = random_vector(C * c.win.in_numel(), rng);
  c.w = random_vector(M * (C / groups) * c.win.kernel_numel(), rng);
  if (rng.chance(0.7)) c.bias = random_vector(M, rng);
  c.epilogue = random_epilogue(rng);
  return c;
}

// Expects y to be the case's convolution within the bound above.
void expect_conv(const ConvCase& c, const std::vector<float>& y) {
  const Window& win = c.win;
  const size_t rank = win.rank();
  const int64_t P = win.out_numel(), K = win.kernel_numel(), in = win.in_numel();
  const int64_t cg = c.C / c.groups, mg = c.M / c.groups;
  std::vector<int64_t> o(rank), k(rank);
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t p = 0; p < P; ++p) {
      for (size_t d = rank, q = static_cast<size_t>(p); d-- > 0;) {
        o[d] = static_cast<int64_t>(q) % win.out[d];
        q /= static_cast<size_t>(win.out[d]);
      }
      double sum = 0, magnitude = 0;
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t t = 0; t < K; ++t) {
          for (size_t d = rank, q = static_cast<size_t>(t); d-- > 0;) {
            k[d] = static_cast<int64_t>(q) % win.kernel[d];
            q /= static_cast<size_t>(win.kernel[d]);
          }
          int64_t at = 0;
          for (size_t d = 0; d < rank && at >= 0; ++d) {
            const int64_t i = o[d] * win.stride[d] - win.pad_begin[d] + k[d] * win.dilation[d];
            at = i < 0 || i >= win.in[d] ? -1 : at * win.in[d] + i;
          }
          if (at < 0) continue;
          const int64_t channel = m / mg * cg + ci;
          const double prod = double{c.x[static_cast<size_t>(channel * in + at)]} *
                              c.w[static_cast<size_t>((m * cg + ci) * K + t)];
          sum += prod;
          magnitude += std::abs(prod);
        }
      if (!c.bias.empty()) sum += c.bias[static_cast<size_t>(m)];
      double bound = static_cast<double>(cg * K + 2) * FLT_EPSILON * (magnitude + 1);
      const ConvEpilogue& e = c.epilogue;
      switch (e.activation) {
        case Activation::Relu:
          sum = std::max(sum, 0.0);
          break;
        case Activation::LeakyRelu:
          sum = sum < 0 ? e.alpha * sum : sum;
          break;
        case Activation::Clip:
          sum = std::clamp(sum, double{e.alpha}, double{e.beta});
          break;
        case Activation::Sigmoid:
          // Its slope is at most 1/4; fast_sigmoid adds at most 3 ulp (kernels/fast_math.h).
          sum = 1 / (1 + std::exp(-sum));
          bound = bound / 4 + 4 * FLT_EPSILON * sum;
          break;
        case Activation::HardSigmoid:
          // max(0, min(1, alpha * x + beta)): slope alpha, and a rounding of its own.
          sum = std::clamp(double{e.alpha} * sum + e.beta, 0.0, 1.0);
          bound = bound * std::abs(e.alpha) + 2 * FLT_EPSILON;
          break;
        case Activation::HardSwish:
        case Activation::ClipHardSwish:
          // x * max(0, min(1, x / 6 + 1/2)): slope at most 3/2 (at x = 3), and three
          // roundings of its own.
          sum = sum * std::clamp(sum / 6 + 0.5, 0.0, 1.0);
          bound = bound * 1.5 + 4 * FLT_EPSILON * std::abs(sum);
          break;
        default:
          break;
      }
      ASSERT_NEAR(y[static_cast<size_t>(m * P + p)], sum, bound)
          << "output channel " << m << ", position " << p << " of " << P << ", C " << c.C << ", M "
          << c.M << ", groups " << c.groups << ", taps " << K;
    }
}

std::vector<float> run_tiles(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  conv_tiles_f32(c.x.data(), c.w.data(), y.data(), c.win, c.C, c.M, c.groups,
                 c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

std::vector<float> run_few_positions(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const PackedB wt = pack_filter_transposed(c.w.data(), c.M, c.C * c.win.kernel_numel());
  conv_few_positions_f32(c.x.data(), wt, y.data(), c.win, c.C,
                         c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

std::vector<float> run_direct(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const std::vector<float> blocked =
      block_filter(c.w.data(), c.M, c.C * c.win.kernel_numel(), conv_direct_block(c.win.out[1]));
  conv_direct_f32(c.x.data(), blocked.data(), y.data(), c.win, c.C, c.M,
                  c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

std::vector<float> run_depthwise(const ConvCase& c, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  conv_depthwise_f32(c.x.data(), c.w.data(), y.data(), c.win, c.C, c.M,
                     c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

std::vector<float> run_winograd(const ConvCase& c, int64_t tile, util::ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(c.M * c.win.out_numel()), NAN);
  const WinogradForm form = winograd_form(c.win.out, tile);
  const std::vector<float> filter = winograd_filter(c.w.data(), c.M, c.C, form);
  conv_winograd_f32(c.x.data(), filter.data(), form, y.data(), c.win, c.C, c.M,
                    c.bias.empty() ? nullptr : c.bias.data(), c.epilogue, pool);
  return y;
}

// Output sizes of `rank` dimensions whose product is at most max_positions.
std::vector<int64_t> random_out(Rng& rng, size_t rank, int64_t max_positions) {
  std::vector<int64_t> out;
  int64_t left = max_positions;
  for (size_t d = 0; d < rank; ++d) {
    out.push_back(rng.uniform(1, left));
    left /= out.back();
  }
  return out;
}

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
      const ConvCase c =
          random_case(rng, random_out(rng, rank, kFewPositionsMax), rank == 1 ? 40 : 7, C, M, 1);
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

// The case with its filter cropped to the taps of `crop` (its weights finite).
ConvCase cropped(const ConvCase& c, const TapCrop& crop) {
  ConvCase cut = c;
  cut.win = cropped_window(c.win, crop);
  cut.w.resize(static_cast<size_t>(c.M * (c.C / c.groups) * cut.win.kernel_numel()));
  EXPECT_TRUE(crop_filter(c.w.data(), c.M * (c.C / c.groups), c.win, crop, cut.w.data()));
  return cut;
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

// The 1x1 layers of det_32x128's last stages (bench/make-cnn-models): many channels over
// 1-16 positions, where the transposed column matrix is the image transposed, and its 3x3
// layers of 96 channels over a 2x8 map; every activation, 1, 2 and 4 threads.
TEST(ConvPaths, FewPositionsOfManyChannels) {
  Rng rng(134);
  struct Layer {
    int64_t C, M, H, W, k, pad;
  };
  const Layer layers[] = {{256, 256, 2, 8, 1, 0}, {128, 256, 2, 8, 1, 0}, {512, 512, 1, 4, 1, 0},
                          {256, 64, 1, 1, 1, 0},  {64, 256, 1, 1, 1, 0},  {96, 24, 2, 8, 3, 1},
                          {37, 19, 3, 5, 1, 0},   {96, 24, 1, 4, 3, 1}};
  for (int threads : {1, 2, 4}) {
    util::ThreadPool pool(threads);
    for (const Layer& l : layers) {
      ConvCase c;
      c.C = l.C;
      c.M = l.M;
      WindowAttrs attrs;
      attrs.pads = {l.pad, l.pad, l.pad, l.pad};
      c.win = resolve_window(attrs, std::vector<int64_t>{l.H, l.W}, std::vector<int64_t>{l.k, l.k});
      ASSERT_TRUE(conv_few_positions_pays(c.win.out_numel(), c.M, 1));
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

namespace bough::kernels {
namespace {

// `cases` random depthwise 2-D convolutions (groups == C, 1 or 2 output channels per
// group): kernels 1..5, strides 1..3 (column phases), dilations 1..2, symmetric and
// asymmetric pads, rows of 1..70 outputs (one step or several, partial ones whose loads run
// past the row into the next one and, on the last row, into the plane's slack), 1..20
// channels, a bias or none, every activation.
void expect_depthwise_on_random_cases(Rng& rng, int cases, util::ThreadPool& pool) {
  for (int i = 0; i < cases; ++i) {
    const int64_t C = rng.uniform(1, 20), mult = rng.uniform(1, 2);
    const ConvCase c =
        random_case(rng, {rng.uniform(1, 20), rng.uniform(1, 70)}, 5, C, C * mult, C);
    ASSERT_TRUE(conv_depthwise_pays(c.win, C, C));
    SCOPED_TRACE(i);
    expect_conv(c, run_depthwise(c, pool));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(ConvPaths, DepthwiseMatchesAReferenceLoop) {
  Rng rng(141);
  for (int threads : {1, 2, 4}) {
    SCOPED_TRACE(testing::Message() << threads << " threads");
    util::ThreadPool pool(threads);
    expect_depthwise_on_random_cases(rng, 80, pool);
  }
}

// Two vectors of outputs at a time and the stride-2 split in vectors depend on the target.
TEST(ConvPaths, DepthwiseOnEveryRunnableTarget) {
  Rng rng(142);
  util::ThreadPool pool(2);
  test::on_every_target([&] { expect_depthwise_on_random_cases(rng, 40, pool); });
}

// PP-LCNet's depthwise layers: 3x3 and 5x5, stride 1 and 2, pads (k - 1) / 2, on OCR-sized
// planes (the recognizer's last stages: 2 and 3 rows of 40, fewer than a block of rows; 7
// rows of 130: blocks of rows, a remainder, steps of four vectors and a partial one), and
// auto_pad SAME_UPPER / SAME_LOWER (asymmetric pads on even sizes).
TEST(ConvPaths, DepthwiseOfImageNetworkLayers) {
  Rng rng(143);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, k, s, h, w, pad] : {std::tuple{16, 3, 1, 40, 60, AutoPad::NotSet},
                                             std::tuple{32, 3, 2, 40, 60, AutoPad::NotSet},
                                             std::tuple{24, 5, 1, 12, 80, AutoPad::NotSet},
                                             std::tuple{48, 5, 2, 24, 160, AutoPad::NotSet},
                                             std::tuple{64, 5, 1, 2, 40, AutoPad::NotSet},
                                             std::tuple{32, 5, 1, 3, 40, AutoPad::NotSet},
                                             std::tuple{16, 3, 1, 7, 130, AutoPad::NotSet},
                                             std::tuple{8, 3, 2, 16, 33, AutoPad::SameUpper},
                                             std::tuple{8, 5, 2, 16, 34, AutoPad::SameLower}}) {
      ConvCase c;
      c.C = c.M = c.groups = C;
      WindowAttrs attrs;
      attrs.strides = {s, s};
      attrs.auto_pad = pad;
      if (pad == AutoPad::NotSet) attrs.pads = {k / 2, k / 2, k / 2, k / 2};
      c.win = resolve_window(attrs, std::vector<int64_t>{h, w}, std::vector<int64_t>{k, k});
      c.x = random_vector(C * h * w, rng);
      c.w = random_vector(C * k * k, rng);
      c.bias = random_vector(C, rng);
      c.epilogue.activation = Activation::Clip;
      c.epilogue.alpha = 0.0f;
      c.epilogue.beta = 0.5f;
      SCOPED_TRACE(testing::Message() << threads << " threads, " << C << " channels, " << k << "x"
                                      << k << " stride " << s << " on " << h << "x" << w);
      expect_conv(c, run_depthwise(c, pool));
    }
  }
}

// The kernels the recognizer's depthwise layers become once the taps that read only the
// padding are cropped (kernels/conv_crop.h), with their weights in registers: 5x5 pads 2 on
// 2 rows -> 3x5 pads (1, 2); 3x3 pads 1 on 1 row -> 1x3 pads (0, 1); and 5x5 on 1 row -> 1x5.
TEST(ConvPaths, DepthwiseOfCroppedKernels) {
  Rng rng(147);
  for (int threads : {1, 2}) {
    util::ThreadPool pool(threads);
    for (const auto& [C, kh, kw, ph, pw, h, w] :
         {std::tuple{64, 3, 5, 1, 2, 2, 40}, std::tuple{32, 1, 3, 0, 1, 1, 20},
          std::tuple{16, 1, 5, 0, 2, 1, 70}}) {
      ConvCase c;
      c.C = c.M = c.groups = C;
      WindowAttrs attrs;
      attrs.pads = {ph, pw, ph, pw};
      c.win = resolve_window(attrs, std::vector<int64_t>{h, w}, std::vector<int64_t>{kh, kw});
      c.x = random_vector(C * h * w, rng);
      c.w = random_vector(C * kh * kw, rng);
      c.bias = random_vector(C, rng);
      c.epilogue = random_epilogue(rng);
      SCOPED_TRACE(testing::Message() << threads << " threads, " << kh << "x" << kw);
      expect_conv(c, run_depthwise(c, pool));
    }
  }
}

// Depthwise windows whose output rows share plane rows (vertical stride equal to the
// vertical dilation: conv_depthwise.cc's SharedRowsOf sums each loaded plane row into every
// output row of a block it feeds): 3x3, 5x5 and the cropped 3x5 at stride 1, 3x3 at stride
// and dilation 2, on maps of 1-9 rows (blocks of 4, the 1-3 rows left, maps of 2 and 3 rows
// as one block) and odd widths (one partial vector, a few vectors, steps of four and a
// partial one), every activation in turn, 1-3 threads, on every runnable target.
struct SharedRowsWindow {
  int64_t kh, kw, stride, dilation;
};
const SharedRowsWindow kSharedRowsWindows[] = {
    {3, 3, 1, 1}, {5, 5, 1, 1}, {3, 5, 1, 1}, {3, 3, 2, 2}};

Window shared_rows_window(const SharedRowsWindow& k, int64_t h, int64_t w) {
  WindowAttrs attrs;
  attrs.strides = {k.stride, k.stride};
  attrs.dilations = {k.dilation, k.dilation};
  attrs.pads = {k.kh / 2 * k.dilation, k.kw / 2 * k.dilation, k.kh / 2 * k.dilation,
                k.kw / 2 * k.dilation};
  return resolve_window(attrs, std::vector<int64_t>{h, w}, std::vector<int64_t>{k.kh, k.kw});
}

TEST(ConvPaths, DepthwiseSharedRowsMatchAReferenceLoop) {
  Rng rng(149);
  const Activation acts[] = {Activation::None,      Activation::Relu,
                             Activation::LeakyRelu, Activation::Clip,
                             Activation::Sigmoid,   Activation::HardSigmoid,
                             Activation::HardSwish, Activation::ClipHardSwish};
  util::ThreadPool pools[] = {util::ThreadPool(1), util::ThreadPool(2), util::ThreadPool(3)};
  int64_t turn = 0;
  test::on_every_target([&] {
    for (util::ThreadPool& pool : pools)
      for (const SharedRowsWindow& k : kSharedRowsWindows)
        for (int64_t h = 1; h <= 9; ++h)
          for (int64_t w : {1, 15, 17, 47, 241}) {
            ConvCase c;
            c.C = c.M = c.groups = 3;
            c.win = shared_rows_window(k, h, w);
            c.x = random_vector(c.C * h * w, rng);
            c.w = random_vector(c.C * k.kh * k.kw, rng);
            c.bias = random_vector(c.C, rng);
            c.epilogue.activation = acts[turn++ % 8];
            c.epilogue.alpha = c.epilogue.activation == Activation::Clip ? -0.5f : 0.1f;
            c.epilogue.beta = 0.5f;
            SCOPED_TRACE(testing::Message() << k.kh << "x" << k.kw << " stride " << k.stride
                                            << " on " << h << "x" << w);
            expect_conv(c, run_depthwise(c, pool));
            if (::testing::Test::HasFatalFailure()) return;
          }
  });
}

// The same windows with a NaN, +inf or -inf planted in each channel's image or weights (one
// per channel, so that no window sums +inf and -inf of two plants): the definition in
// double over the zero-padded image (a non-finite weight times the padding's zeros is NaN),
// then the activation, as x * clamp(x / 6 + 1/2, 0, 1) for HardSwish (-inf: NaN). NaN and
// infinities must come out exactly there, through the block's shared loads.
std::vector<double> depthwise_definition(const ConvCase& c) {
  const Window& win = c.win;
  const int64_t IH = win.in[0], IW = win.in[1], OH = win.out[0], OW = win.out[1];
  const int64_t KH = win.kernel[0], KW = win.kernel[1];
  std::vector<double> y;
  for (int64_t m = 0; m < c.M; ++m)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        double sum = c.bias[static_cast<size_t>(m)];
        for (int64_t i = 0; i < KH; ++i)
          for (int64_t j = 0; j < KW; ++j) {
            const int64_t ih = oh * win.stride[0] - win.pad_begin[0] + i * win.dilation[0];
            const int64_t iw = ow * win.stride[1] - win.pad_begin[1] + j * win.dilation[1];
            const double xv = ih < 0 || ih >= IH || iw < 0 || iw >= IW
                                  ? 0.0
                                  : c.x[static_cast<size_t>((m * IH + ih) * IW + iw)];
            sum += xv * c.w[static_cast<size_t>((m * KH + i) * KW + j)];
          }
        const ConvEpilogue& e = c.epilogue;
        switch (e.activation) {
          case Activation::Relu:
            sum = sum < 0 ? 0.0 : sum;
            break;
          case Activation::Clip:
            sum = sum < e.alpha ? e.alpha : sum > e.beta ? e.beta : sum;
            break;
          case Activation::HardSwish:
            sum = sum * std::clamp(sum / 6 + 0.5, 0.0, 1.0);
            break;
          default:
            break;
        }
        y.push_back(sum);
      }
  return y;
}

TEST(ConvPaths, DepthwiseSharedRowsKeepNaNAndInfinity) {
  Rng rng(150);
  const float plants[] = {NAN, INFINITY, -INFINITY};
  util::ThreadPool pools[] = {util::ThreadPool(1), util::ThreadPool(2), util::ThreadPool(3)};
  for (util::ThreadPool& pool : pools)
    for (const SharedRowsWindow& k : kSharedRowsWindows)
      for (int64_t h : {1, 2, 3, 5, 7})
        for (int64_t w : {9, 17, 241})
          for (Activation act :
               {Activation::None, Activation::Relu, Activation::Clip, Activation::HardSwish}) {
            ConvCase c;
            c.C = c.M = c.groups = 6;
            c.win = shared_rows_window(k, h, w);
            c.x = random_vector(c.C * h * w, rng);
            c.w = random_vector(c.C * k.kh * k.kw, rng);
            c.bias = random_vector(c.C, rng);
            c.epilogue.activation = act;
            c.epilogue.alpha = -0.5f;
            c.epilogue.beta = 0.5f;
            // Channels 0-2 get a NaN, +inf, -inf in the image, 3-5 in a weight.
            for (int64_t ch = 0; ch < c.C; ++ch) {
              const float v = plants[ch % 3];
              if (ch < 3) {
                c.x[static_cast<size_t>(ch * h * w + rng.uniform(0, h * w - 1))] = v;
              } else {
                c.w[static_cast<size_t>(ch * k.kh * k.kw + rng.uniform(0, k.kh * k.kw - 1))] = v;
              }
            }
            const std::vector<float> y = run_depthwise(c, pool);
            const std::vector<double> want = depthwise_definition(c);
            SCOPED_TRACE(testing::Message()
                         << k.kh << "x" << k.kw << " stride " << k.stride << " on " << h << "x" << w
                         << ", activation " << static_cast<int>(act));
            for (size_t i = 0; i < want.size(); ++i) {
              if (std::isnan(want[i])) {
                ASSERT_TRUE(std::isnan(y[i])) << "output " << i << ": " << y[i];
              } else if (std::isinf(want[i])) {
                ASSERT_EQ(y[i], want[i]) << "output " << i;
              } else {
                ASSERT_NEAR(y[i], want[i], 1e-4) << "output " << i;
              }
            }
          }
}

// The padded plane is cleared once per thread's channels and each channel writes only its
// image's values (stride 1 and 2): planes of large values, unpadded, fill a thread's scratch
// first, then smaller padded planes (the pads where those values were) must read zeros
// there. One thread, so that every call reuses the same scratch.
TEST(ConvPaths, DepthwisePaddingIsZeroAfterOtherPlanes) {
  Rng rng(148);
  util::ThreadPool pool(1);
  for (const auto& [k, s, h, w, pad] :
       {std::tuple{5, 1, 2, 8, 2}, std::tuple{3, 2, 8, 32, 1}, std::tuple{3, 1, 4, 16, 1},
        std::tuple{5, 2, 2, 8, 2}, std::tuple{3, 3, 7, 11, 1}}) {
    ConvCase big;
    big.C = big.M = big.groups = 3;
    big.win =
        resolve_window(WindowAttrs{}, std::vector<int64_t>{24, 40}, std::vector<int64_t>{3, 3});
    big.x.assign(static_cast<size_t>(3 * 24 * 40), 1000.0f);
    big.w = random_vector(3 * 9, rng);
    run_depthwise(big, pool);
    ConvCase c;
    c.C = c.M = c.groups = 6;
    WindowAttrs attrs;
    attrs.strides = {s, s};
    attrs.pads = {pad, pad, pad, pad};
    c.win = resolve_window(attrs, std::vector<int64_t>{h, w}, std::vector<int64_t>{k, k});
    c.x = random_vector(6 * h * w, rng);
    c.w = random_vector(6 * k * k, rng);
    SCOPED_TRACE(testing::Message() << k << "x" << k << " stride " << s << " on " << h << "x" << w);
    expect_conv(c, run_depthwise(c, pool));
  }
}

// A NaN or infinity in the image reaches exactly the outputs whose window holds it, through
// every activation (a Relu or Clip spelled as max/min would drop it): 3x3, pads 1, stride 1
// and 2, on a 5x6 image of ones with NaN at (1, 1) and +inf at (3, 4), weights 1/2. The
// windows of output (oh, ow) cover rows oh*s-1..oh*s+1 and columns ow*s-1..ow*s+1.
TEST(ConvPaths, DepthwiseKeepsNaNAndInfinityOfTheImage) {
  util::ThreadPool pool(2);
  for (int64_t s : {1, 2})
    for (Activation act : {Activation::None, Activation::Relu, Activation::Clip}) {
      ConvCase c;
      WindowAttrs attrs;
      attrs.strides = {s, s};
      attrs.pads = {1, 1, 1, 1};
      c.win = resolve_window(attrs, std::vector<int64_t>{5, 6}, std::vector<int64_t>{3, 3});
      c.x.assign(30, 1.0f);
      c.x[1 * 6 + 1] = NAN;
      c.x[3 * 6 + 4] = INFINITY;
      c.w.assign(9, 0.5f);
      c.bias = {0.25f};
      c.epilogue.activation = act;
      c.epilogue.beta = 100.0f;
      const std::vector<float> y = run_depthwise(c, pool);
      const int64_t OH = c.win.out[0], OW = c.win.out[1];
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          auto holds = [&](int64_t r, int64_t col) {
            return std::abs(oh * s - r) <= 1 && std::abs(ow * s - col) <= 1;
          };
          const float v = y[static_cast<size_t>(oh * OW + ow)];
          SCOPED_TRACE(testing::Message()
                       << "stride " << s << ", activation " << static_cast<int>(act) << ", output "
                       << oh << "," << ow);
          if (holds(1, 1)) {
            EXPECT_TRUE(std::isnan(v)) << v;
          } else if (holds(3, 4)) {
            EXPECT_EQ(v, act == Activation::Clip ? 100.0f : INFINITY);
          } else {
            EXPECT_TRUE(std::isfinite(v) && v > 0) << v;
          }
        }
    }
}

// A NaN or infinite weight times the padding's zeros is NaN, as the definition's zero
// padding gives: 3x3 with pads 1 on a 4x4 image of ones, the top-left weight +inf, the
// others 1. Output (oh, ow)'s top-left tap reads (oh - 1, ow - 1): in the padding for the
// first row and column (0 * inf: NaN), else an image one (+inf).
TEST(ConvPaths, DepthwiseMultipliesThePaddingByANonFiniteWeight) {
  util::ThreadPool pool(1);
  ConvCase c;
  WindowAttrs attrs;
  attrs.pads = {1, 1, 1, 1};
  c.win = resolve_window(attrs, std::vector<int64_t>{4, 4}, std::vector<int64_t>{3, 3});
  c.x.assign(16, 1.0f);
  c.w.assign(9, 1.0f);
  c.w[0] = INFINITY;
  const std::vector<float> y = run_depthwise(c, pool);
  for (int64_t oh = 0; oh < 4; ++oh)
    for (int64_t ow = 0; ow < 4; ++ow) {
      const float v = y[static_cast<size_t>(oh * 4 + ow)];
      if (oh == 0 || ow == 0) {
        EXPECT_TRUE(std::isnan(v)) << oh << "," << ow << ": " << v;
      } else {
        EXPECT_EQ(v, INFINITY) << oh << "," << ow;
      }
    }
}

}  // namespace
}  // namespace bough::kernels
