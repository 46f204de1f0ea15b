// NaN and infinities through every float Conv path (Winograd, direct, cache-sized tiles of
// im2col columns, 1x1, depthwise, few output positions), fused with Relu or Clip or not,
// with W and B as initializers (prepared once) or as inputs: a NaN or an infinity planted
// in the image, the filter or the bias comes out exactly where the definition puts it. The
// reference is the definition computed in double: the image padded with zeros, every output
// the sum over its window of image times filter (so a NaN or infinite filter tap reaches
// every output of its channel, through the padding's zeros too: 0 times inf is NaN), plus
// the bias, then max(v, 0) or min(max(v, lo), hi), which keep a NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bough/session.h"
#include "model_builder.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;

struct Shape {
  const char* path;
  int64_t C, M, H, W, k, stride, pad, groups;
};

// Each picks one path of ops/onnx/conv.cc (see the conv_*_pays functions).
const Shape kShapes[] = {
    {"winograd", 16, 4, 9, 10, 3, 1, 1, 1},
    {"direct", 2, 3, 6, 7, 3, 1, 1, 1},
    {"direct_stride_2", 2, 3, 7, 8, 3, 2, 1, 1},
    {"tiles", 3, 4, 7, 7, 3, 3, 1, 1},
    {"pointwise", 3, 4, 5, 5, 1, 1, 0, 1},
    {"depthwise", 4, 4, 6, 5, 3, 1, 1, 4},
    {"few_positions", 3, 16, 4, 4, 3, 1, 0, 1},
    {"few_positions_pointwise", 24, 16, 2, 8, 1, 1, 0, 1},
    {"few_positions_pointwise_one_position", 8, 16, 1, 1, 1, 1, 0, 1},
    // 17-24 positions: transposed only in place of the tiles or pointwise path
    {"few_positions_pointwise_20", 24, 16, 1, 20, 1, 1, 0, 1},
    {"depthwise_5x5_stride_2", 3, 6, 9, 11, 5, 2, 2, 3},
    {"pointwise_groups", 4, 6, 5, 5, 1, 1, 0, 2},
    // Maps smaller than the kernel's reach: the taps that read only the padding are cropped
    // (kernels/conv_crop.h) when their weights are finite. The planted weight, tap (0, 0),
    // is in a cropped row (or column), so it must keep the whole kernel.
    {"cropped_rows_winograd", 16, 4, 1, 10, 3, 1, 1, 1},
    {"cropped_columns_winograd", 16, 4, 9, 1, 3, 1, 1, 1},
    {"cropped_rows_few_positions", 3, 16, 1, 8, 3, 1, 1, 1},
    {"cropped_rows_few_positions_20", 200, 16, 1, 20, 3, 1, 1, 1},  // 1x3 of 600 taps
    {"cropped_rows_direct", 2, 3, 1, 7, 3, 1, 1, 1},
    {"cropped_rows_direct_stride_2", 3, 4, 2, 7, 3, 2, 1, 1},
    {"cropped_rows_tiles_stride_3", 3, 4, 2, 7, 3, 3, 1, 1},
    {"cropped_depthwise_5x5", 4, 4, 2, 9, 5, 1, 2, 4},
};

enum class Act { none, relu, clip };
constexpr float kLo = -0.5f, kHi = 0.5f;

struct Planted {
  const char* name;
  char where;  // 'x', 'w', 'b' or 0 (nothing planted)
  float value;
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
const Planted kPlants[] = {{"nothing", 0, 0},      {"x_nan", 'x', kNaN},  {"x_inf", 'x', kInf},
                           {"x_-inf", 'x', -kInf}, {"w_nan", 'w', kNaN},  {"w_inf", 'w', kInf},
                           {"b_nan", 'b', kNaN},   {"b_-inf", 'b', -kInf}};

std::vector<float> random_values(test::Rng& rng, size_t n) {
  std::vector<float> v(n);
  for (float& f : v) f = static_cast<float>(rng.real(-1, 1));
  return v;
}

// The definition, in double.
std::vector<double> reference(const Shape& s, const std::vector<float>& x,
                              const std::vector<float>& w, const std::vector<float>& b, Act act) {
  const int64_t OH = (s.H + 2 * s.pad - s.k) / s.stride + 1;
  const int64_t OW = (s.W + 2 * s.pad - s.k) / s.stride + 1;
  const int64_t cg = s.C / s.groups, mg = s.M / s.groups;
  std::vector<double> y(static_cast<size_t>(s.M * OH * OW));
  for (int64_t m = 0; m < s.M; ++m)
    for (int64_t oh = 0; oh < OH; ++oh)
      for (int64_t ow = 0; ow < OW; ++ow) {
        double sum = b[static_cast<size_t>(m)];
        for (int64_t c = 0; c < cg; ++c)
          for (int64_t i = 0; i < s.k; ++i)
            for (int64_t j = 0; j < s.k; ++j) {
              const int64_t ih = oh * s.stride + i - s.pad, iw = ow * s.stride + j - s.pad;
              const int64_t ic = (m / mg) * cg + c;
              const double xv = ih < 0 || ih >= s.H || iw < 0 || iw >= s.W
                                    ? 0.0
                                    : x[static_cast<size_t>((ic * s.H + ih) * s.W + iw)];
              sum += xv * w[static_cast<size_t>(((m * cg + c) * s.k + i) * s.k + j)];
            }
        double& out = y[static_cast<size_t>((m * OH + oh) * OW + ow)];
        out = act == Act::relu   ? (sum < 0 ? 0.0 : sum)
              : act == Act::clip ? (sum < kLo   ? kLo
                                    : sum > kHi ? kHi
                                                : sum)
                                 : sum;
      }
  return y;
}

// Runs one Conv (or FusedConv, with an activation) of the shape; W and B initializers when
// `prepared`, else inputs.
Tensor run(const Shape& s, const std::vector<float>& x, const std::vector<float>& w,
           const std::vector<float>& b, Act act, bool prepared, int threads) {
  test::GraphBuilder g("main");
  const Tensor xt = f32({1, s.C, s.H, s.W}, x);
  const Tensor wt = f32({s.M, s.C / s.groups, s.k, s.k}, w), bt = f32({s.M}, b);
  g.input("x", ElemType::Float, {1, s.C, s.H, s.W});
  NamedValues feed = {{"x", Value(xt)}};
  if (prepared) {
    g.initializer("w", wt).initializer("b", bt);
  } else {
    g.input("w", ElemType::Float, wt.shape().vec()).input("b", ElemType::Float, {s.M});
    feed.emplace_back("w", Value(wt));
    feed.emplace_back("b", Value(bt));
  }
  auto& n = g.node(act == Act::none ? "Conv" : "FusedConv", {"x", "w", "b"}, {"y"});
  test::set_ints(n, "kernel_shape", {s.k, s.k});
  test::set_ints(n, "strides", {s.stride, s.stride});
  test::set_ints(n, "pads", {s.pad, s.pad, s.pad, s.pad});
  test::set_int(n, "group", s.groups);
  if (act != Act::none) {
    n.set_domain("com.microsoft");
    test::set_string(n, "activation", act == Act::relu ? "Relu" : "Clip");
    if (act == Act::clip) test::set_floats(n, "activation_params", {kLo, kHi});
  }
  g.output_untyped("y");
  onnxpb::ModelProto m = test::make_model(g, 21, 10);
  auto* ms = m.add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  const std::string path = test::save_model(m, test::scratch_dir("conv_nonfinite"), "m.onnx");
  SessionOptions options;
  options.threads = threads;
  options.optimization = Optimization::none;
  Session session(Model::load(path), options);
  return session.run(feed)[0].second.tensor();
}

TEST(ConvNonFinite, EveryPathPutsNaNAndInfinityWhereTheDefinitionDoes) {
  test::Rng rng(7);
  for (const Shape& s : kShapes)
    for (const Planted& p : kPlants)
      for (Act act : {Act::none, Act::relu, Act::clip})
        for (bool prepared : {true, false}) {
          SCOPED_TRACE(std::string(s.path) + " " + p.name + " act " +
                       std::to_string(static_cast<int>(act)) + (prepared ? " prepared" : ""));
          std::vector<float> x = random_values(rng, static_cast<size_t>(s.C * s.H * s.W));
          std::vector<float> w =
              random_values(rng, static_cast<size_t>(s.M * (s.C / s.groups) * s.k * s.k));
          std::vector<float> b = random_values(rng, static_cast<size_t>(s.M));
          // In the middle of the image (a Winograd tile's inside), a filter tap of channel 1,
          // the bias of channel 1.
          if (p.where == 'x') x[static_cast<size_t>((1 * s.H + s.H / 2) * s.W + s.W / 2)] = p.value;
          if (p.where == 'w') w[static_cast<size_t>((1 * (s.C / s.groups)) * s.k * s.k)] = p.value;
          if (p.where == 'b') b[1] = p.value;
          const std::vector<double> want = reference(s, x, w, b, act);
          const std::vector<float> got =
              test::floats_of(run(s, x, w, b, act, prepared, 1 + static_cast<int>(prepared)));
          ASSERT_EQ(got.size(), want.size());
          for (size_t i = 0; i < want.size(); ++i) {
            if (std::isnan(want[i])) {
              EXPECT_TRUE(std::isnan(got[i])) << "at " << i << ": " << got[i] << ", want NaN";
            } else if (std::isinf(want[i])) {
              EXPECT_EQ(got[i], want[i]) << "at " << i;
            } else {
              EXPECT_NEAR(got[i], want[i], 1e-4) << "at " << i;
            }
          }
        }
}

}  // namespace
}  // namespace bough
