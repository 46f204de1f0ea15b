// The operators on kernels/fast_math.h (the activations, Softmax, LogSoftmax) and Pow's
// multiply path, run as one-node models against references computed here in double with
// libm: odd lengths (vector tails), every axis, the opset < 13 2-D coercion, huge, tiny and
// infinite values. Softmax on every vector target (its float loops are compiled per target).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "bough/tensor.h"
#include "model_builder.h"
#include "on_every_target.h"

namespace bough {
namespace {

using test::Dims64;
using test::f32;
using test::floats_of;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor run1(const std::string& op, const test::NamedTensors& ins, int64_t opset,
            const test::Attrs& attrs = {}, int threads = 1) {
  return test::run_node(op, ins, 1, attrs, opset, "fastmathops", threads)[0];
}

// Values got[i] against want[i]: NaN where want is NaN, infinity where want rounds to it
// in float, and otherwise
// within `rel` of want (plus a denormal's worth).
void expect_close(const std::vector<float>& got, const std::vector<double>& want, double rel,
                  const std::string& what, double abs = 1e-44) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << what << " [" << i << "]: " << got[i];
    } else if (std::isinf(static_cast<float>(want[i]))) {  // overflows float
      EXPECT_EQ(got[i], static_cast<float>(want[i])) << what << " [" << i << "]";
    } else {
      EXPECT_NEAR(got[i], want[i], rel * std::fabs(want[i]) + abs)
          << what << " [" << i << "] of " << got.size();
    }
  }
}

// 1003 values over [lo, hi] (an odd count, so the vector loops have a tail), then extra.
std::vector<float> sweep(float lo, float hi, std::vector<float> extra = {}) {
  std::vector<float> v;
  for (int i = 0; i < 1003; ++i) v.push_back(lo + (hi - lo) * static_cast<float>(i) / 1002.0f);
  v.insert(v.end(), extra.begin(), extra.end());
  return v;
}

void expect_unary(const std::string& op, int64_t opset, const std::vector<float>& xs,
                  const std::function<double(double)>& ref, double rel,
                  const test::Attrs& attrs = {}) {
  std::vector<double> want;
  for (float x : xs) want.push_back(ref(x));
  for (int threads : {1, 2}) {
    const Tensor y =
        run1(op, {{"x", f32({static_cast<int64_t>(xs.size())}, xs)}}, opset, attrs, threads);
    expect_close(floats_of(y), want, rel, op + " on " + std::to_string(threads) + " threads");
  }
}

const float kFInf = std::numeric_limits<float>::infinity();
const float kFNaN = std::numeric_limits<float>::quiet_NaN();

TEST(FastMathOps, ActivationsMatchLibmInDouble) {
  const std::vector<float> specials = {0.0f, -0.0f, kFInf, -kFInf, kFNaN, 1e-40f, -1e-40f};
  expect_unary(
      "Exp", 13, sweep(-110, 95, specials), [](double x) { return std::exp(x); }, 1e-6);
  expect_unary(
      "Log", 13, sweep(0, 1e5f, {0.0f, -1.0f, kFInf, -kFInf, kFNaN, 1e-40f, 1e-3f}),
      [](double x) { return std::log(x); }, 1e-6);
  expect_unary(
      "Tanh", 13, sweep(-12, 12, specials), [](double x) { return std::tanh(x); }, 1e-6);
  expect_unary(
      "Sigmoid", 13, sweep(-100, 100, specials), [](double x) { return 1 / (1 + std::exp(-x)); },
      1e-6);
  expect_unary(
      "Erf", 13, sweep(-5, 5, specials), [](double x) { return std::erf(x); }, 1e-6);
  expect_unary(
      "Gelu", 20, sweep(-12, 12, specials),
      [](double x) {
        return std::isinf(x) ? (x > 0 ? x : 0.0) : 0.5 * x * std::erfc(-x / std::sqrt(2.0));
      },
      2e-6);
  // tanh-Gelu as x / (1 + e^-2u): the same function, without 1 + tanh's cancellation.
  expect_unary(
      "Gelu", 20, sweep(-8, 12, specials),
      [](double x) {
        if (std::isinf(x)) return x > 0 ? x : 0.0;
        const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
        return x / (1 + std::exp(-2 * u));
      },
      1e-5, [](onnxpb::NodeProto& n) { test::set_string(n, "approximate", "tanh"); });
  expect_unary(
      "Swish", 24, sweep(-30, 30, {0.0f, kFNaN}), [](double x) { return x / (1 + std::exp(-x)); },
      1e-6);
}

// Softmax or LogSoftmax in double over the index sets of x (shape dims) that differ only
// in dimensions [axis, last_axis].
std::vector<double> softmax_reference(const std::vector<float>& x, const Dims64& dims, size_t axis,
                                      size_t last_axis, bool log) {
  int64_t outer = 1, n = 1, inner = 1;
  for (size_t d = 0; d < dims.size(); ++d)
    (d < axis ? outer : d <= last_axis ? n : inner) *= dims[d];
  std::vector<double> y(x.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      auto at = [&](int64_t r) { return static_cast<size_t>((o * n + r) * inner + i); };
      double mx = -kInf;
      for (int64_t r = 0; r < n; ++r) mx = std::max(mx, static_cast<double>(x[at(r)]));
      double sum = 0;
      for (int64_t r = 0; r < n; ++r) sum += std::exp(x[at(r)] - mx);
      for (int64_t r = 0; r < n; ++r)
        y[at(r)] = log ? (x[at(r)] - mx) - std::log(sum) : std::exp(x[at(r)] - mx) / sum;
    }
  return y;
}

// Random-looking values in [-spread, spread]; a fixed sequence, so failures reproduce.
std::vector<float> values(int64_t count, float spread) {
  std::vector<float> v(static_cast<size_t>(count));
  uint32_t s = 12345;
  for (float& e : v) {
    s = s * 1664525u + 1013904223u;
    e = spread * (static_cast<float>(s >> 8) / 8388608.0f - 1.0f);
  }
  return v;
}

int64_t count_of(const Dims64& dims) {
  int64_t c = 1;
  for (int64_t d : dims) c *= d;
  return c;
}

void expect_softmaxes(const Dims64& dims, int64_t axis, int64_t opset, float spread = 8,
                      int threads = 1) {
  const std::vector<float> x = values(count_of(dims), spread);
  const size_t rank = dims.size();
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(rank) : axis);
  const size_t last = opset < 13 ? rank - 1 : a;  // before 13: all of the trailing part
  for (bool log : {false, true}) {
    const Tensor y = run1(
        log ? "LogSoftmax" : "Softmax", {{"x", f32(dims, x)}}, opset,
        [axis](onnxpb::NodeProto& n) { test::set_int(n, "axis", axis); }, threads);
    std::string what = std::string(log ? "LogSoftmax" : "Softmax") + " opset " +
                       std::to_string(opset) + " axis " + std::to_string(axis) + " threads " +
                       std::to_string(threads) + " dims";
    for (int64_t d : dims) what += " " + std::to_string(d);
    // LogSoftmax near 0 is -log(sum) for a sum near 1: the sum's rounding is absolute.
    expect_close(floats_of(y), softmax_reference(x, dims, a, last, log), 2e-5, what,
                 log ? 1e-6 : 1e-44);
  }
}

TEST(FastMathOps, SoftmaxRowsOfOddLengthsAndLongRows) {
  test::on_every_target([&] {
    // Rows shorter than a vector, with tails, over several 512-element blocks, and long
    // enough that the blocks grow (64 blocks at most).
    for (int64_t n : {1, 7, 17, 1001, 1537, 40003}) expect_softmaxes({3, n}, -1, 13);
    expect_softmaxes({2, 2049}, -1, 13, 300);  // a wide spread: the running maximum moves
  });
}

TEST(FastMathOps, SoftmaxRowsOfEveryTailLength) {
  test::on_every_target([&] {
    // Every length up to four vectors of the widest target and beyond, each partial last
    // vector (masked on AVX2 and AVX-512) of every length.
    for (int64_t n = 1; n <= 66; ++n) expect_softmaxes({3, n}, -1, 13);
    // An attention map's 120 keys (8 heads of 120 queries), a recognizer's 6625 classes
    // and 7000, the rows split over 1 to 3 threads.
    for (int threads : {1, 2, 3}) {
      expect_softmaxes({8, 120, 120}, -1, 13, 8, threads);
      for (int64_t n : {6625, 7000}) expect_softmaxes({5, n}, -1, 13, 8, threads);
    }
  });
}

TEST(FastMathOps, SoftmaxRowsWithInfinitiesAndNaNInTheirLastPartialVector) {
  // Rows of 123 (7 vectors and 11 of AVX-512, 15 and 3 of AVX2, 30 and 3 of SSE4): a +inf,
  // a NaN, all -inf, -inf scattered over the tail, and a maximum 200 above the rest in the
  // tail (missed by the maximum, its e^200 would be inf and the row NaN).
  test::on_every_target([&] {
    const int64_t n = 123;
    std::vector<float> x = values(5 * n, 8);
    x[static_cast<size_t>(121)] = kFInf;                                                 // row 0
    x[static_cast<size_t>(n + 122)] = kFNaN;                                             // row 1
    std::fill(x.begin() + 2 * n, x.begin() + 3 * n, -kFInf);                             // row 2
    for (int64_t i = 4 * n - 11; i < 4 * n; i += 2) x[static_cast<size_t>(i)] = -kFInf;  // row 3
    x[static_cast<size_t>(5 * n - 2)] = 208.0f;                                          // row 4
    for (bool log : {false, true}) {
      const std::vector<float> y =
          floats_of(run1(log ? "LogSoftmax" : "Softmax", {{"x", f32({5, n}, x)}}, 13));
      for (int64_t i = 0; i < 3 * n; ++i)
        ASSERT_TRUE(std::isnan(y[static_cast<size_t>(i)])) << log << " [" << i << "]";
      const std::vector<float> last(x.begin() + 3 * n, x.end());
      expect_close(std::vector<float>(y.begin() + 3 * n, y.end()),
                   softmax_reference(last, {2, n}, 1, 1, log), 2e-5, log ? "LogSoftmax" : "Softmax",
                   1e-6);
    }
  });
}

TEST(FastMathOps, SoftmaxAlongEveryAxisAndCoercedTo2D) {
  test::on_every_target([&] {
    for (int64_t axis : {0, 1, 2, -1}) expect_softmaxes({3, 5, 7}, axis, 13);
    expect_softmaxes({2, 3, 300}, 1, 13);  // more columns than are handled side by side
    for (int64_t axis : {0, 1, 2}) expect_softmaxes({3, 5, 7}, axis, 11);
    expect_softmaxes({4, 3, 5}, 1, 1);
  });
}

TEST(FastMathOps, SoftmaxOfHugeInfiniteAndAllMinusInfinityRows) {
  test::on_every_target([&] {
    const double ninf = -kInf;
    const std::vector<float> x = {1000, 0, -kFInf, 0, -kFInf, -kFInf, 3, kFInf, 1, kFNaN};
    const Tensor sm = run1("Softmax", {{"x", f32({5, 2}, x)}}, 13);
    // exp(-1000) underflows to 0; a row of -inf and a row with +inf or NaN are NaN, as
    // x - max(x) makes them in the ONNX reference.
    expect_close(floats_of(sm), {1, 0, 0, 1, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}, 1e-6, "Softmax");
    const Tensor lsm = run1("LogSoftmax", {{"x", f32({5, 2}, x)}}, 13);
    expect_close(floats_of(lsm), {0, -1000, ninf, 0, kNaN, kNaN, kNaN, kNaN, kNaN, kNaN}, 1e-6,
                 "LogSoftmax");
  });
}

TEST(FastMathOps, SoftmaxWithWholeBlocksOfMinusInfinity) {
  test::on_every_target([&] {
    // The first 600 elements (more than a block) are -inf: they give 0 (and -inf), not NaN.
    std::vector<float> x(1500, -kFInf);
    for (size_t i = 600; i < x.size(); ++i) x[i] = static_cast<float>(i % 13) - 6.0f;
    for (bool log : {false, true}) {
      const Tensor y = run1(log ? "LogSoftmax" : "Softmax", {{"x", f32({1, 1500}, x)}}, 13);
      expect_close(floats_of(y), softmax_reference(x, {1, 1500}, 1, 1, log), 2e-5,
                   log ? "LogSoftmax" : "Softmax", 1e-6);
    }
  });
}

// The distance of got from want in units of the float spacing at want (2^-149 among
// denormals).
double ulps(float got, double want) {
  const float w = static_cast<float>(want);
  const float a = std::fabs(w);
  const double spacing =
      static_cast<double>(std::nextafter(a, std::numeric_limits<float>::infinity()) - a);
  return std::fabs(static_cast<double>(got) - want) / spacing;
}

TEST(FastMathOps, SoftmaxOverManyClassesWithinStatedUlps) {
  // A recognizer's head: rows of 6625 classes (a vector tail, 13 blocks), logits spread
  // over +-20 and over +-150 (where most results are denormal or 0). Each result is
  // e^(x - max) with x - max rounded to float first (as in ONNX Runtime's kernel and the
  // ONNX reference): that rounding alone is a relative error up to |x - max| 2^-24, so up to
  // |x - max| ulps; then fast_exp (1.1 ulp), the block's rescale factor (1.1), 1 / sum (the
  // sum of positive float terms) and two roundings. Measured at most 2.6 ulps beyond
  // |x - max| on every target, bounded by 4.
  test::on_every_target([&] {
    for (float spread : {20.0f, 150.0f}) {
      const Dims64 dims = {3, 6625};
      const std::vector<float> x = values(count_of(dims), spread);
      const std::vector<float> got = floats_of(run1("Softmax", {{"x", f32(dims, x)}}, 13));
      const std::vector<double> want = softmax_reference(x, dims, 1, 1, false);
      double worst = 0;
      for (int64_t row = 0; row < dims[0]; ++row) {
        const auto begin = x.begin() + row * dims[1];
        const float mx = *std::max_element(begin, begin + dims[1]);
        for (int64_t i = row * dims[1]; i < (row + 1) * dims[1]; ++i) {
          const size_t k = static_cast<size_t>(i);
          worst = std::max(worst, ulps(got[k], want[k]) - std::fabs(x[k] - mx));
        }
      }
      EXPECT_LE(worst, 4.0) << "spread " << spread;
    }
  });
}

TEST(FastMathOps, SoftmaxRowsWithInfinitiesAndNaNInTheirVectorPart) {
  // Rows of 1037 (vectors and a tail, three blocks): a +inf, a NaN, all -inf, and -inf
  // scattered among finite values, each special value at a position the vector loops read.
  test::on_every_target([&] {
    const int64_t n = 1037;
    std::vector<float> x = values(4 * n, 8);
    x[static_cast<size_t>(700)] = kFInf;                                            // row 0
    x[static_cast<size_t>(n + 33)] = kFNaN;                                         // row 1
    std::fill(x.begin() + 2 * n, x.begin() + 3 * n, -kFInf);                        // row 2
    for (int64_t i = 3 * n; i < 4 * n; i += 5) x[static_cast<size_t>(i)] = -kFInf;  // row 3
    for (bool log : {false, true}) {
      const std::vector<float> y =
          floats_of(run1(log ? "LogSoftmax" : "Softmax", {{"x", f32({4, n}, x)}}, 13));
      for (int64_t i = 0; i < 3 * n; ++i)
        ASSERT_TRUE(std::isnan(y[static_cast<size_t>(i)])) << log << " [" << i << "]";
      // The last row as the reference has it: 0 (or -inf) at -inf, NaN nowhere.
      const std::vector<float> last(x.begin() + 3 * n, x.end());
      expect_close(std::vector<float>(y.begin() + 3 * n, y.end()),
                   softmax_reference(last, {1, n}, 1, 1, log), 2e-5, log ? "LogSoftmax" : "Softmax",
                   1e-6);
    }
  });
}

// Pow with the exponent `e` (a tensor of its own shape) against std::pow in double.
void expect_pow(const std::vector<float>& xs, const Tensor& e, double rel,
                const std::string& what) {
  const Tensor y = run1("Pow", {{"x", f32({static_cast<int64_t>(xs.size())}, xs)}, {"e", e}}, 15);
  const std::vector<double> es = test::doubles_of(e);
  std::vector<double> want;
  for (size_t i = 0; i < xs.size(); ++i)
    want.push_back(std::pow(static_cast<double>(xs[i]), es[es.size() == 1 ? 0 : i]));
  expect_close(floats_of(y), want, rel, what);
}

TEST(FastMathOps, PowBySmallIntegersAndHalf) {
  const std::vector<float> xs = {-3.5f, -2,    -1,     -0.5f,  -0.0f, 0,      0.5f,  1,    2,
                                 3.5f,  1e13f, -1e13f, 1e-13f, kFInf, -kFInf, kFNaN, 7.25f};
  for (float p : {-4.f, -3.f, -2.f, -1.f, 0.f, 1.f, 2.f, 3.f, 4.f, 0.5f}) {
    expect_pow(xs, f32({}, {p}), 3e-7, "float exponent " + std::to_string(p));
    expect_pow(xs, f32({1}, {p}), 3e-7, "[1] exponent " + std::to_string(p));
    expect_pow(xs, f32({17}, std::vector<float>(17, p)), 3e-7, "all-equal exponents");
  }
  for (int64_t p : {-3, 3}) expect_pow(xs, test::i64({}, {p}), 3e-7, "int64 exponent");
  // The signs libm gives: 0^-1 = inf, (-0)^-1 = -inf, (-0)^0.5 = +0, NaN^0 = 1.
  const Tensor y =
      run1("Pow",
           {{"x", f32({4}, {0.0f, -0.0f, -0.0f, kFNaN})}, {"e", f32({4}, {-1, -1, 0.5f, 0})}}, 15);
  const std::vector<float> got = floats_of(y);
  EXPECT_EQ(got[0], kFInf);
  EXPECT_EQ(got[1], -kFInf);
  EXPECT_EQ(got[2], 0.0f);
  EXPECT_FALSE(std::signbit(got[2]));
  EXPECT_EQ(got[3], 1.0f);
  const Tensor half = run1("Pow", {{"x", f32({2}, {-0.0f, -kFInf})}, {"e", f32({}, {0.5f})}}, 15);
  EXPECT_FALSE(std::signbit(floats_of(half)[0]));
  EXPECT_EQ(floats_of(half)[1], kFInf);
}

TEST(FastMathOps, PowWithOtherExponentsAndBroadcastShapes) {
  const std::vector<float> xs = {-2, -0.5f, 0.5f, 2, 3};
  expect_pow(xs, f32({}, {5}), 3e-7, "5 is past the multiply range");
  expect_pow(xs, f32({}, {2.5f}), 3e-7, "a fraction");
  expect_pow(xs, f32({5}, {2, 2, 2, 2, 3}), 3e-7, "unequal exponents");
  // An exponent of a larger shape than the base still broadcasts.
  const Tensor y =
      run1("Pow", {{"x", f32({3}, {1, 2, 3})}, {"e", f32({2, 3}, {2, 2, 2, 2, 2, 2})}}, 15);
  EXPECT_EQ(y.shape(), Dims({2, 3}));
  EXPECT_EQ(floats_of(y), (std::vector<float>{1, 4, 9, 1, 4, 9}));
}

}  // namespace
}  // namespace bough
