// The depthwise path (kernels/conv_depthwise.h: a plane per channel, all taps in registers;
// stride 1 in blocks of rows that share their loads) against a plain loop in double over every
// output and tap (conv_case.h), on random shapes, strides, dilations and pads, every
// activation, 1-3 threads and every vector target; and NaN and infinities where the
// definition puts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/conv_case.h"
#include "on_every_target.h"

namespace bough::kernels {
namespace {

using namespace conv_test;  // NOLINT(google-build-using-namespace): the tests' shared kit

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
