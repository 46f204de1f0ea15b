// DeformConv against Conv (zero offsets, whole-pixel offsets), against values worked out by
// hand (half-pixel offsets, masks, 1-D), and against a plain reference loop written here
// (groups, offset groups, strides, dilations, pads, mask and bias together).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
#include "kernels/convert.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

struct Window2 {
  int64_t group = 1, offset_group = 1;
  test::Dims64 strides, dilations, pads;

  test::Attrs attrs(bool deform) const {
    return [c = *this, deform](onnxpb::NodeProto& n) {
      test::set_int(n, "group", c.group);
      if (deform) test::set_int(n, "offset_group", c.offset_group);
      if (!c.strides.empty()) test::set_ints(n, "strides", c.strides);
      if (!c.dilations.empty()) test::set_ints(n, "dilations", c.dilations);
      if (!c.pads.empty()) test::set_ints(n, "pads", c.pads);
    };
  }
};

Tensor deform_conv(const test::NamedTensors& inputs, const Window2& w, const std::string& dir,
                   int64_t opset = 19) {
  return test::run_node("DeformConv", inputs, 1, w.attrs(true), opset, dir)[0];
}
Tensor conv(const test::NamedTensors& inputs, const Window2& w, const std::string& dir) {
  return test::run_node("Conv", inputs, 1, w.attrs(false), 19, dir)[0];
}

void expect_near(const Tensor& got, const Tensor& want, double tolerance = 1e-5) {
  ASSERT_EQ(got.shape(), want.shape());
  const std::vector<float> g = floats_of(got), e = floats_of(want);
  for (size_t i = 0; i < g.size(); ++i) EXPECT_NEAR(g[i], e[i], tolerance) << "element " << i;
}

TEST(DeformConv, ZeroOffsetsAreConv) {
  test::Rng rng(1);
  // 1-D, 2-D and 3-D, with groups, strides, dilations and pads.
  const std::vector<std::pair<Dims, Window2>> cases = {
      {{1, 4, 9}, {2, 2, {2}, {1}, {1, 2}}},
      {{2, 4, 7, 8}, {2, 1, {1, 2}, {2, 1}, {1, 0, 2, 1}}},
      {{1, 2, 5, 4, 6}, {1, 2, {1, 1, 2}, {1, 2, 1}, {0, 1, 0, 1, 0, 1}}},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto& [xs, win] = cases[i];
    const size_t r = xs.size() - 2;
    Dims ws{6, xs[1] / win.group};
    for (size_t d = 0; d < r; ++d) ws.push_back(2 + static_cast<int64_t>(d % 2));
    const Tensor x = test::random_floats(xs, rng), w = test::random_floats(ws, rng);
    const Tensor b = test::random_floats({6}, rng);
    const Tensor y =
        conv({{"x", x}, {"w", w}, {"b", b}}, win, "deform_zero_conv" + std::to_string(i));
    int64_t taps = 1;
    for (size_t d = 0; d < r; ++d) taps *= ws[2 + d];
    Dims os{xs[0], win.offset_group * taps * static_cast<int64_t>(r)};
    for (size_t d = 0; d < r; ++d) os.push_back(y.dim(2 + d));
    const Tensor offset = Tensor::zeros(ElemType::Float, os);
    expect_near(deform_conv({{"x", x}, {"w", w}, {"o", offset}, {"b", b}}, win,
                            "deform_zero" + std::to_string(i)),
                y);
  }
}

TEST(DeformConv, WholePixelOffsetIsAShiftedConv) {
  test::Rng rng(2);
  const Tensor x = test::random_floats({1, 2, 5, 6}, rng),
               w = test::random_floats({3, 2, 2, 2}, rng);
  // Every tap moved one row down and two columns left: the image shifted by (+1, -2), with
  // zeros where the shift leaves it.
  Tensor shifted = Tensor::zeros(ElemType::Float, Dims{1, 2, 5, 6});
  for (int64_t c = 0; c < 2; ++c)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t j = 0; j < 6; ++j)
        if (i + 1 < 5 && j - 2 >= 0)
          shifted.data<float>()[(c * 5 + i) * 6 + j] = x.data<float>()[(c * 5 + i + 1) * 6 + j - 2];
  const Window2 win;
  const Tensor want = conv({{"x", shifted}, {"w", w}}, win, "deform_shift_conv");
  ASSERT_EQ(want.shape(), (Dims{1, 3, 4, 5}));
  Tensor offset(ElemType::Float, Dims{1, 8, 4, 5});
  for (int64_t ch = 0; ch < 8; ++ch)  // (tap, axis) pairs: axis 0 rows, axis 1 columns
    for (int64_t p = 0; p < 20; ++p) offset.data<float>()[ch * 20 + p] = ch % 2 == 0 ? 1.0f : -2.0f;
  expect_near(deform_conv({{"x", x}, {"w", w}, {"o", offset}}, win, "deform_shift"), want);
}

TEST(DeformConv, HalfPixelOffsetAveragesNeighboursAndMaskScales) {
  // A 1x1 kernel of weight 1 samples the image itself. Offset +0.5 along columns: the mean
  // of each pixel and its right neighbour, half the last pixel (its neighbour is outside).
  const Tensor x = f32({1, 1, 2, 3}, {1, 2, 4, 8, 16, 32});
  const Tensor w = f32({1, 1, 1, 1}, {1});
  Tensor offset = Tensor::zeros(ElemType::Float, Dims{1, 2, 2, 3});
  for (int64_t p = 0; p < 6; ++p) offset.data<float>()[6 + p] = 0.5f;
  const Tensor y = deform_conv({{"x", x}, {"w", w}, {"o", offset}}, {}, "deform_half");
  EXPECT_EQ(floats_of(y), (std::vector<float>{1.5f, 3, 2, 12, 24, 16}));
  // Half a pixel along both axes: the mean of four pixels (outside ones count as 0).
  for (int64_t p = 0; p < 6; ++p) offset.data<float>()[p] = 0.5f;
  const Tensor y2 = deform_conv({{"x", x}, {"w", w}, {"o", offset}}, {}, "deform_half2");
  EXPECT_EQ(floats_of(y2), (std::vector<float>{6.75f, 13.5f, 9, 6, 12, 8}));
  // A mask scales each sample, and the bias is added after.
  const Tensor mask = f32({1, 1, 2, 3}, {0, 1, 0.5f, 2, -1, 0.25f});
  const Tensor bias = f32({1}, {100});
  const Tensor y3 =
      deform_conv({{"x", x}, {"w", w}, {"o", offset}, {"b", bias}, {"m", mask}}, {}, "deform_mask");
  EXPECT_EQ(floats_of(y3), (std::vector<float>{100, 113.5f, 104.5f, 112, 88, 102}));
}

TEST(DeformConv, SamplesOutsideTheImageAreZeroEvenBesideInfinity) {
  // Pixel (0, 0) is inf. Samples moved off the image, or by a NaN offset, read 0 (not
  // 0 * inf). Output (1, 1) moved up 1.5 rows reads half of pixel (0, 1) and half of the
  // zero above the image: 0.5.
  const float inf = std::numeric_limits<float>::infinity();
  const Tensor x = f32({1, 1, 2, 2}, {inf, 1, 2, 4});
  const Tensor w = f32({1, 1, 1, 1}, {1});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Rows offsets, then column offsets, per output (0, 0) (0, 1) (1, 0) (1, 1).
  const Tensor offset = f32({1, 2, 2, 2}, {5, nan, -3, -1.5f, 0, 0, 0, 0});
  EXPECT_EQ(floats_of(deform_conv({{"x", x}, {"w", w}, {"o", offset}}, {}, "deform_inf")),
            (std::vector<float>{0, 0, 0, 0.5f}));
}

TEST(DeformConv, OneDimensionalByHand) {
  // X = 1 2 3 4, W = (1, 10), three outputs. Tap offsets: tap 0 (0.25, 0, -1), tap 1
  // (-1.5, 0.5, 0). Output 0: tap 0 at 0.25 reads 0.75 * 1 + 0.25 * 2 = 1.25, tap 1 at -0.5
  // reads half of pixel 0 = 0.5: 1.25 + 5 = 6.25. Output 1: pixel 1 = 2, tap 1 at 2.5 reads
  // 3.5: 37. Output 2: tap 0 at 1 reads 2, tap 1 at 3 reads 4: 42.
  const Tensor x = f32({1, 1, 4}, {1, 2, 3, 4});
  const Tensor w = f32({1, 1, 2}, {1, 10});
  const Tensor offset = f32({1, 2, 3}, {0.25f, 0, -1, -1.5f, 0.5f, 0});
  EXPECT_EQ(floats_of(deform_conv({{"x", x}, {"w", w}, {"o", offset}}, {}, "deform_1d")),
            (std::vector<float>{6.25f, 37, 42}));
}

// Bilinear sample of plane (h x w) at (y, x), pixels outside counting as 0.
float sample(const float* plane, int64_t h, int64_t w, double y, double x) {
  const double y0 = std::floor(y), x0 = std::floor(x);
  double v = 0;
  for (int dy = 0; dy < 2; ++dy)
    for (int dx = 0; dx < 2; ++dx) {
      const auto yi = static_cast<int64_t>(y0) + dy, xi = static_cast<int64_t>(x0) + dx;
      if (yi < 0 || yi >= h || xi < 0 || xi >= w) continue;
      const double wy = dy ? y - y0 : 1 - (y - y0), wx = dx ? x - x0 : 1 - (x - x0);
      v += wy * wx * plane[yi * w + xi];
    }
  return static_cast<float>(v);
}

TEST(DeformConv, MatchesAReferenceLoop) {
  test::Rng rng(3);
  const int64_t N = 2, C = 4, H = 7, W = 6, M = 4, group = 2, og = 2, KH = 3, KW = 2;
  const int64_t sh = 2, sw = 1, dh = 1, dw = 2, ph = 1, pw = 2;
  const int64_t OH = (H + 2 * ph - dh * (KH - 1) - 1) / sh + 1;
  const int64_t OW = (W + 2 * pw - dw * (KW - 1) - 1) / sw + 1;
  const Tensor x = test::random_floats({N, C, H, W}, rng);
  const Tensor w = test::random_floats({M, C / group, KH, KW}, rng);
  const Tensor b = test::random_floats({M}, rng);
  const Tensor offset = test::random_floats({N, og * KH * KW * 2, OH, OW}, rng, -3, 3);
  const Tensor mask = test::random_floats({N, og * KH * KW, OH, OW}, rng, 0, 1);
  Window2 win{group, og, {sh, sw}, {dh, dw}, {ph, pw, ph, pw}};
  const Tensor y = deform_conv({{"x", x}, {"w", w}, {"o", offset}, {"b", b}, {"m", mask}}, win,
                               "deform_reference", 22);

  Tensor want(ElemType::Float, Dims{N, M, OH, OW});
  const float *xp = x.data<float>(), *wp = w.data<float>(), *op = offset.data<float>();
  const float* mp = mask.data<float>();
  for (int64_t n = 0; n < N; ++n)
    for (int64_t m = 0; m < M; ++m)
      for (int64_t i = 0; i < OH; ++i)
        for (int64_t j = 0; j < OW; ++j) {
          double sum = b.data<float>()[m];
          const int64_t g = m / (M / group);
          for (int64_t ci = 0; ci < C / group; ++ci) {
            const int64_t c = g * (C / group) + ci, o = c / (C / og);
            for (int64_t kh = 0; kh < KH; ++kh)
              for (int64_t kw = 0; kw < KW; ++kw) {
                const int64_t k = kh * KW + kw;
                auto at = [&](int64_t channel) {
                  return ((n * (og * KH * KW * 2) + channel) * OH + i) * OW + j;
                };
                const double yy = i * sh - ph + kh * dh + op[at((o * KH * KW + k) * 2)];
                const double xx = j * sw - pw + kw * dw + op[at((o * KH * KW + k) * 2 + 1)];
                const float mv = mp[((n * og * KH * KW + o * KH * KW + k) * OH + i) * OW + j];
                sum += static_cast<double>(wp[((m * (C / group) + ci) * KH + kh) * KW + kw]) *
                       sample(xp + (n * C + c) * H * W, H, W, yy, xx) * mv;
              }
          }
          want.data<float>()[((n * M + m) * OH + i) * OW + j] = static_cast<float>(sum);
        }
  expect_near(y, want, 1e-4);
}

TEST(DeformConv, Float16IsComputedInFloat) {
  const Tensor x = kernels::cast(f32({1, 1, 2, 3}, {1, 2, 4, 8, 16, 32}), ElemType::Float16);
  const Tensor w = kernels::cast(f32({1, 1, 1, 1}, {1}), ElemType::Float16);
  Tensor offset = Tensor::zeros(ElemType::Float, Dims{1, 2, 2, 3});
  for (int64_t p = 0; p < 6; ++p) offset.data<float>()[6 + p] = 0.5f;
  const Tensor y = deform_conv(
      {{"x", x}, {"w", w}, {"o", kernels::cast(offset, ElemType::Float16)}}, {}, "deform_half_f16");
  ASSERT_EQ(y.type(), ElemType::Float16);
  EXPECT_EQ(test::doubles_of(y), (std::vector<double>{1.5, 3, 2, 12, 24, 16}));  // as above
}

// Runs DeformConv on inputs declared without shapes, so that only the kernel sees them.
Tensor deform_conv_unranked(const test::NamedTensors& inputs, const std::string& dir) {
  test::GraphBuilder g;
  std::vector<std::string> names;
  NamedValues feeds;
  for (const auto& [name, t] : inputs) {
    g.input(name, t.type(), {}, false);
    names.push_back(name);
    feeds.emplace_back(name, t);
  }
  g.output_untyped("y");
  g.node("DeformConv", names, {"y"});
  Session session(
      Model::load(test::save_model(test::make_model(g, 19), test::scratch_dir(dir), "m.onnx")));
  return session.run(feeds)[0].second.tensor();
}

TEST(DeformConv, RefusesInputsThatDoNotFit) {
  const Tensor x = f32({1, 2, 3, 3}, std::vector<float>(18, 1));
  const Tensor w = f32({1, 2, 2, 2}, std::vector<float>(8, 1));
  // One offset group: offsets are 2 * 4 channels, the mask 4, over 2x2 outputs. With
  // declared shapes the check refuses the model; without, the kernel refuses the inputs.
  const Tensor bad_offset = Tensor::zeros(ElemType::Float, Dims{1, 6, 2, 2});
  const Tensor offset = Tensor::zeros(ElemType::Float, Dims{1, 8, 2, 2});
  const Tensor bad_mask = Tensor::zeros(ElemType::Float, Dims{1, 4, 2, 3});
  try {
    deform_conv({{"x", x}, {"w", w}, {"o", bad_offset}}, {}, "deform_bad_offset");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
    EXPECT_NE(std::string(e.what()).find("offset's channels"), std::string::npos) << e.what();
  }
  test::expect_invalid_model([&] {
    deform_conv({{"x", x}, {"w", w}, {"o", offset}, {"", Tensor()}, {"m", bad_mask}}, {},
                "deform_bad_mask");
  });
  test::expect_bad_input([&] {
    deform_conv_unranked({{"x", x}, {"w", w}, {"o", bad_offset}}, "deform_bad_offset_run");
  });
  test::expect_bad_input([&] {
    deform_conv_unranked({{"x", x}, {"w", w}, {"o", offset}, {"b", f32({1}, {0})}, {"m", bad_mask}},
                         "deform_bad_mask_run");
  });
  EXPECT_EQ(floats_of(deform_conv_unranked({{"x", x}, {"w", w}, {"o", offset}}, "deform_fits_run")),
            std::vector<float>(4, 8.0f));
  Window2 three_groups;
  three_groups.offset_group = 3;  // 2 channels do not split in 3
  test::expect_bad_input([&] {
    deform_conv({{"x", x}, {"w", w}, {"o", Tensor::zeros(ElemType::Float, Dims{1, 24, 2, 2})}},
                three_groups, "deform_bad_offset_group");
  });
}

}  // namespace
}  // namespace bough
