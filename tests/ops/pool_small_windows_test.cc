// MaxPool and AveragePool on 2-D windows, the path for windows that all lie inside the image
// (kernels/pool_inside.h: the 2x2 stride 2 downsampling of CNNs and other small windows) and
// the general walk beside it (padding, ceil_mode's partial windows, dilations), against a
// reference loop written from the ONNX definition, across shapes, kernels, strides, pads,
// ceil_mode and count_include_pad, at 1, 2 and 4 threads and on every vector target; and by
// hand for NaN, infinities and signed zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "model_builder.h"
#include "on_every_target.h"
#include "reference.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

struct Pool {
  int64_t kh, kw, sh, sw, dh = 1, dw = 1;
  int64_t pt = 0, pl = 0, pb = 0, pr = 0;  // pads: top, left, bottom, right
  bool ceil = false, include_pad = false;
};

test::Attrs attrs_of(const Pool& p, bool average) {
  return [p, average](onnxpb::NodeProto& n) {
    test::set_ints(n, "kernel_shape", {p.kh, p.kw});
    test::set_ints(n, "strides", {p.sh, p.sw});
    test::set_ints(n, "dilations", {p.dh, p.dw});
    test::set_ints(n, "pads", {p.pt, p.pl, p.pb, p.pr});
    test::set_int(n, "ceil_mode", p.ceil ? 1 : 0);
    if (average) test::set_int(n, "count_include_pad", p.include_pad ? 1 : 0);
  };
}

// Output positions along one axis (ONNX: floor or ceil of (in + pads - extent) / stride, plus
// 1; with ceil_mode a last window starting in the end padding is dropped).
int64_t out_size(int64_t in, int64_t k, int64_t s, int64_t d, int64_t p0, int64_t p1, bool ceil) {
  const int64_t span = in + p0 + p1 - ((k - 1) * d + 1);
  int64_t o = (ceil ? (span + s - 1) / s : span / s) + 1;
  if (ceil && (o - 1) * s >= in + p0) --o;
  return o;
}

// The pooled planes: each window's taps in row-major order, those inside the image folded
// (the maximum from -inf, a NaN tap never winning as in std::max(acc, tap); the sum from
// 0), the mean dividing by the taps inside the image or, with count_include_pad, inside the
// padded image (taps past the end padding, which ceil_mode's last window can reach, never
// count).
std::vector<float> reference(const std::vector<float>& x, int64_t planes, int64_t H, int64_t W,
                             const Pool& p, bool average) {
  const int64_t OH = out_size(H, p.kh, p.sh, p.dh, p.pt, p.pb, p.ceil);
  const int64_t OW = out_size(W, p.kw, p.sw, p.dw, p.pl, p.pr, p.ceil);
  std::vector<float> y;
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t i = 0; i < OH; ++i)
      for (int64_t j = 0; j < OW; ++j) {
        float acc = average ? 0.0f : -std::numeric_limits<float>::infinity();
        int64_t inside = 0, padded = 0;
        for (int64_t a = 0; a < p.kh; ++a)
          for (int64_t b = 0; b < p.kw; ++b) {
            const int64_t r = i * p.sh - p.pt + a * p.dh, c = j * p.sw - p.pl + b * p.dw;
            if (r < H + p.pb && c < W + p.pr) ++padded;
            if (r < 0 || r >= H || c < 0 || c >= W) continue;
            ++inside;
            const float v = x[static_cast<size_t>((pl * H + r) * W + c)];
            acc = average ? acc + v : std::max(acc, v);
          }
        const int64_t count = p.include_pad ? padded : inside;
        y.push_back(average ? (count > 0 ? acc / static_cast<float>(count) : 0.0f) : acc);
      }
  return y;
}

// Bit for bit, NaN included.
void expect_same_bits(const std::vector<float>& got, const std::vector<float>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &want[i], sizeof(float)) != 0 &&
        !(std::isnan(got[i]) && std::isnan(want[i])))
      ADD_FAILURE() << what << " [" << i << "]: " << got[i] << ", want " << want[i];
}

void expect_pools(const Tensor& x, const Pool& p, const std::string& what) {
  const int64_t planes = x.dim(0) * x.dim(1), H = x.dim(2), W = x.dim(3);
  for (bool average : {false, true}) {
    const std::vector<float> want = reference(floats_of(x), planes, H, W, p, average);
    for (int threads : {1, 2, 4}) {
      const auto y = test::run_node(average ? "AveragePool" : "MaxPool", {{"x", x}}, 1,
                                    attrs_of(p, average), 19, "pool_small", threads);
      expect_same_bits(
          floats_of(y[0]), want,
          what + (average ? " AveragePool" : " MaxPool") + " threads " + std::to_string(threads));
    }
  }
}

std::string describe(const Pool& p, int64_t H, int64_t W) {
  return "image " + std::to_string(H) + "x" + std::to_string(W) + " kernel " +
         std::to_string(p.kh) + "x" + std::to_string(p.kw) + " stride " + std::to_string(p.sh) +
         "x" + std::to_string(p.sw) + " dilation " + std::to_string(p.dh) + "x" +
         std::to_string(p.dw) + " pads " + std::to_string(p.pt) + "," + std::to_string(p.pl) + "," +
         std::to_string(p.pb) + "," + std::to_string(p.pr) + (p.ceil ? " ceil" : "") +
         (p.include_pad ? " include_pad" : "");
}

TEST(PoolSmallWindows, TwoByTwoStrideTwoOnRecognizerAndOddPlanes) {
  test::on_every_target([&] {
    test::Rng rng(34);
    // The recognizer's 2x40 and 2x240 planes, odd sizes (a last column left out), rows
    // shorter than a vector, and the last vector moved back over a longer row; rows of 8, 10,
    // 6 and 4 outputs, in vectors of 8 or 4 lanes where a whole vector holds more (a small
    // CNN's last 16 x 16 planes).
    for (auto [H, W] : std::vector<std::pair<int64_t, int64_t>>{{2, 40},
                                                                {2, 240},
                                                                {3, 7},
                                                                {5, 33},
                                                                {4, 70},
                                                                {9, 2},
                                                                {2, 66},
                                                                {16, 16},
                                                                {2, 20},
                                                                {3, 12},
                                                                {8, 8}}) {
      const Tensor x = test::random_floats(Dims{1, 3, H, W}, rng, -4, 4);
      expect_pools(x, Pool{2, 2, 2, 2}, describe(Pool{2, 2, 2, 2}, H, W));
    }
  });
}

TEST(PoolSmallWindows, RandomWindowsStridesPadsAndCeilMode) {
  test::on_every_target([&] {
    test::Rng rng(2026);
    for (int trial = 0; trial < 60; ++trial) {
      Pool p{rng.uniform(1, 3), rng.uniform(1, 4), rng.uniform(1, 3), rng.uniform(1, 3)};
      if (trial % 4 == 1) {  // padding, below the kernel's size as ONNX asks
        p.pt = rng.uniform(0, p.kh - 1);
        p.pb = rng.uniform(0, p.kh - 1);
        p.pl = rng.uniform(0, p.kw - 1);
        p.pr = rng.uniform(0, p.kw - 1);
      }
      if (trial % 5 == 2) p.dh = rng.uniform(1, 2), p.dw = rng.uniform(1, 2);
      p.ceil = trial % 3 == 0;
      p.include_pad = trial % 2 == 0;
      const int64_t H = rng.uniform(p.kh * p.dh, 12), W = rng.uniform(p.kw * p.dw, 80);
      const Tensor x = test::random_floats(Dims{rng.uniform(1, 2), rng.uniform(1, 5), H, W}, rng);
      expect_pools(x, p, describe(p, H, W));
    }
  });
}

TEST(PoolSmallWindows, NanInfinitiesAndSignedZerosByHand) {
  test::on_every_target([&] {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    // 2x2 stride 2 windows over a 2 x 40 plane (two vectors of 16 outputs and a moved-back
    // last one with AVX-512) and a 2 x 16 one (one vector of 8): the first three windows and
    // the last by hand, the others 1 each.
    for (int64_t W : {40, 16}) {
      const int64_t last = W / 2 - 1;
      std::vector<float> x(static_cast<size_t>(2 * W), 1.0f);
      auto set = [&](int64_t window, std::vector<float> v) {
        x[static_cast<size_t>(2 * window)] = v[0];
        x[static_cast<size_t>(2 * window + 1)] = v[1];
        x[static_cast<size_t>(W + 2 * window)] = v[2];
        x[static_cast<size_t>(W + 2 * window + 1)] = v[3];
      };
      set(0, {nan, 1, 2, 3});            // max 3 (NaN dropped), mean NaN
      set(1, {-0.0f, 0.0f, -1, -0.0f});  // max -0 (the first of equals), mean -0.25
      set(2, {inf, -inf, 1, 2});         // max inf, mean NaN
      set(last, {inf, 5, 1, 2});         // max inf, mean inf
      const Tensor t = f32({1, 1, 2, W}, x);
      const Pool p{2, 2, 2, 2};
      for (bool average : {false, true}) {
        const auto y = test::run_node(average ? "AveragePool" : "MaxPool", {{"x", t}}, 1,
                                      attrs_of(p, average), 19, "pool_hand");
        const std::vector<float> got = floats_of(y[0]);
        ASSERT_EQ(got.size(), static_cast<size_t>(W / 2));
        const size_t end = static_cast<size_t>(last);
        if (average) {
          EXPECT_TRUE(std::isnan(got[0])) << W;
          EXPECT_EQ(got[1], -0.25f) << W;
          EXPECT_TRUE(std::isnan(got[2])) << W;
          EXPECT_EQ(got[end], inf) << W;
        } else {
          EXPECT_EQ(got[0], 3.0f) << W;
          EXPECT_EQ(got[1], 0.0f) << W;
          EXPECT_TRUE(std::signbit(got[1])) << W;
          EXPECT_EQ(got[2], inf) << W;
          EXPECT_EQ(got[end], inf) << W;
        }
        for (size_t i = 3; i < end; ++i) EXPECT_EQ(got[i], 1.0f) << W << " " << i;
      }
    }
  });
}

}  // namespace
}  // namespace bough
