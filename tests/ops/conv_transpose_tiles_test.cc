// ConvTranspose over more input positions than one tile of its column matrix holds (ops/onnx/
// conv_transpose.cc: kColBudget elements, at least kMinTileColumns positions a tile), on a
// window that tiles the output (stride == kernel: each output written once, with its bias)
// and on one that overlaps (stride < kernel: added), with groups, at 1 and 2 threads,
// against the definition in double: y[m][o] = b[m] + sum over the group's channels c, input
// positions i and taps k with o = i*s - pad + k of x[c][i] w[c][m][k].
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "model_builder.h"
#include "reference.h"

namespace bough {
namespace {

struct Case {
  int64_t C, M, groups, H, W, k, s, pad;
};

std::vector<double> reference(const Case& t, const std::vector<float>& x,
                              const std::vector<float>& w, const std::vector<float>& b, int64_t OH,
                              int64_t OW) {
  const int64_t cg = t.C / t.groups, mg = t.M / t.groups;
  std::vector<double> y(static_cast<size_t>(t.M * OH * OW));
  for (int64_t m = 0; m < t.M; ++m)
    for (int64_t p = 0; p < OH * OW; ++p) y[static_cast<size_t>(m * OH * OW + p)] = b[m];
  for (int64_t c = 0; c < t.C; ++c)
    for (int64_t mi = 0; mi < mg; ++mi) {
      const int64_t m = c / cg * mg + mi;
      for (int64_t i = 0; i < t.H; ++i)
        for (int64_t j = 0; j < t.W; ++j)
          for (int64_t ki = 0; ki < t.k; ++ki)
            for (int64_t kj = 0; kj < t.k; ++kj) {
              const int64_t oh = i * t.s - t.pad + ki, ow = j * t.s - t.pad + kj;
              if (oh < 0 || oh >= OH || ow < 0 || ow >= OW) continue;
              y[static_cast<size_t>((m * OH + oh) * OW + ow)] +=
                  double{x[static_cast<size_t>((c * t.H + i) * t.W + j)]} *
                  w[static_cast<size_t>(((c * mg + mi) * t.k + ki) * t.k + kj)];
            }
    }
  return y;
}

TEST(ConvTransposeTiles, ManyPositionsMatchTheDefinition) {
  test::Rng rng(346);
  // 300 x 4 and 80 x 16 rows of the column matrix: tiles of 256 positions, 400 and 441 of
  // them (a partial last tile).
  const Case cases[] = {{4, 300, 1, 20, 20, 2, 2, 0},
                        {6, 300, 2, 21, 21, 2, 2, 0},
                        {3, 80, 1, 20, 20, 4, 2, 1},
                        {4, 80, 2, 21, 21, 3, 1, 1}};
  for (const Case& t : cases)
    for (int threads : {1, 2}) {
      SCOPED_TRACE(testing::Message() << "M " << t.M << ", kernel " << t.k << ", stride " << t.s
                                      << ", groups " << t.groups << ", " << threads << " threads");
      std::vector<float> x(static_cast<size_t>(t.C * t.H * t.W)),
          w(static_cast<size_t>(t.C * (t.M / t.groups) * t.k * t.k)), b(static_cast<size_t>(t.M));
      for (float& v : x) v = static_cast<float>(rng.real(-1, 1));
      for (float& v : w) v = static_cast<float>(rng.real(-1, 1));
      for (float& v : b) v = static_cast<float>(rng.real(-1, 1));
      const int64_t OH = (t.H - 1) * t.s + t.k - 2 * t.pad, OW = (t.W - 1) * t.s + t.k - 2 * t.pad;
      const std::vector<double> want = reference(t, x, w, b, OH, OW);
      const Tensor y = test::run_node(
          "ConvTranspose",
          {{"x", test::f32({1, t.C, t.H, t.W}, x)},
           {"w", test::f32({t.C, t.M / t.groups, t.k, t.k}, w)},
           {"b", test::f32({t.M}, b)}},
          1,
          [&](onnxpb::NodeProto& n) {
            test::set_ints(n, "strides", {t.s, t.s});
            test::set_ints(n, "pads", {t.pad, t.pad, t.pad, t.pad});
            test::set_int(n, "group", t.groups);
          },
          22, "conv_transpose_tiles", threads)[0];
      ASSERT_EQ(y.shape().vec(), (test::Dims64{1, t.M, OH, OW}));
      const std::vector<float> got = test::floats_of(y);
      const double bound = 1e-5 * static_cast<double>(t.C * t.k * t.k);
      for (size_t i = 0; i < want.size(); ++i) ASSERT_NEAR(got[i], want[i], bound) << "at " << i;
    }
}

}  // namespace
}  // namespace bough
