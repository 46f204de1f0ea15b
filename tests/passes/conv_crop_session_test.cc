// One Conv session run on maps of several sizes, where the taps that read only the padding
// are cropped (kernels/conv_crop.h) on some and not on others: the crop made for a size is
// kept for the next run of that size, the whole filter used for the rest. 3x3, pads 1, 16
// channels (the Winograd path on the larger maps, the cropped kernel on one row), 20
// filters (few output positions on the small maps), with W and B initializers, against the
// reference loop; and a W whose tap (0, 0) of filter 1 is infinite, which must keep the
// whole kernel: every output of filter 1 whose tap (0, 0) reads the padding (row 0 or column
// 0) is 0 * inf = NaN, the others x * inf, an infinity of x's sign.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "bough/session.h"
#include "model_builder.h"
#include "passes/conv_reference.h"
#include "reference.h"
#include "test_paths.h"

namespace bough {
namespace {

constexpr int64_t kC = 16, kM = 20;

std::string conv_model(const std::vector<float>& w, const std::vector<float>& b,
                       const std::string& dir, const std::string& name) {
  test::GraphBuilder g("main");
  g.input("x", ElemType::Float, {1, kC, 1, 1}).name_input_dim(0, 2, "H").name_input_dim(0, 3, "W");
  g.initializer("w", test::f32({kM, kC, 3, 3}, w)).initializer("b", test::f32({kM}, b));
  auto& n = g.node("Conv", {"x", "w", "b"}, {"y"});
  test::set_ints(n, "kernel_shape", {3, 3});
  test::set_ints(n, "pads", {1, 1, 1, 1});
  g.output_untyped("y");
  return test::save_model(test::make_model(g, 21, 10), dir, name);
}

TEST(ConvCropSession, EachMapSizeGetsItsCropOrTheWholeKernel) {
  test::Rng rng(145);
  std::vector<float> w(static_cast<size_t>(kM * kC * 9)), b(static_cast<size_t>(kM));
  for (float& v : w) v = static_cast<float>(rng.real(-1, 1));
  for (float& v : b) v = static_cast<float>(rng.real(-1, 1));
  std::vector<float> w_inf = w;
  w_inf[static_cast<size_t>(1 * kC * 9)] = INFINITY;  // filter 1, channel 0, tap (0, 0)
  const std::string dir = test::scratch_dir("conv_crop_session");
  const std::string plain = conv_model(w, b, dir, "plain.onnx");
  const std::string inf = conv_model(w_inf, b, dir, "inf.onnx");
  const std::vector<std::pair<int64_t, int64_t>> sizes = {{1, 10}, {6, 10}, {1, 10}, {2, 5},
                                                          {1, 40}, {9, 1},  {6, 10}, {1, 1}};
  for (int threads : {1, 2}) {
    SessionOptions options;
    options.threads = threads;
    options.optimization = Optimization::none;
    Session session(Model::load(plain), options), with_inf(Model::load(inf), options);
    for (const auto& [H, W] : sizes) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << H << "x" << W);
      std::vector<float> x(static_cast<size_t>(kC * H * W));
      for (float& v : x) v = static_cast<float>(rng.real(-1, 1));
      const Tensor xt = test::f32({1, kC, H, W}, x);
      test::Dims64 out;
      const std::vector<double> want = test::reference_conv(x, w, b, 1, kC, kM, 1, {H, W}, {3, 3},
                                                            {1, 1}, {1, 1}, {1, 1, 1, 1}, out);
      ASSERT_EQ(out, (test::Dims64{H, W}));
      const std::vector<float> got =
          test::floats_of(session.run({{"x", Value(xt)}})[0].second.tensor());
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e-4) << "at " << i;

      const std::vector<float> got_inf =
          test::floats_of(with_inf.run({{"x", Value(xt)}})[0].second.tensor());
      for (int64_t m = 0; m < kM; ++m)
        for (int64_t oh = 0; oh < H; ++oh)
          for (int64_t ow = 0; ow < W; ++ow) {
            const size_t i = static_cast<size_t>((m * H + oh) * W + ow);
            if (m != 1) {
              ASSERT_NEAR(got_inf[i], want[i], 1e-4) << "filter " << m;
            } else if (oh == 0 || ow == 0) {
              ASSERT_TRUE(std::isnan(got_inf[i])) << oh << "," << ow << ": " << got_inf[i];
            } else {
              const float tap = x[static_cast<size_t>((oh - 1) * W + ow - 1)];  // channel 0
              ASSERT_EQ(got_inf[i], tap > 0 ? INFINITY : -INFINITY) << oh << "," << ow;
            }
          }
    }
  }
}

}  // namespace
}  // namespace bough
