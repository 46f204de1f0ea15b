// The fast float functions of kernels/fast_math.h against double-precision libm: a sample of
// every float (each 8209th bit pattern), the regions around each function's thresholds
// densely, and the special values exactly. bench/fast_math_exhaustive runs the same
// comparison on all 2^32 floats.
#include "kernels/fast_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/fast_math_maps.h"
#include "kernels/fast_math_reference.h"
#include "on_every_target.h"

namespace bough::kernels {
namespace {

using test::bound_fraction;
using test::FastMathCase;
using test::float_of;
using test::kFastMathCases;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const FastMathCase& find_case(const std::string& name) {
  for (const auto& c : kFastMathCases)
    if (name == c.name) return c;
  throw std::logic_error("no fast math case " + name);
}

// Checks `c` on the bit patterns [first, last] every `step`-th, both signs, through the
// kernels' loop (kernels::fast_map) on the current target; reports the worst error found
// (as a fraction of the stated bound).
void expect_within_bound(const FastMathCase& c, uint32_t first, uint32_t last, uint32_t step) {
  std::vector<float> in, out;
  for (uint64_t b = first; b <= last; b += step) {
    in.push_back(float_of(static_cast<uint32_t>(b)));
    in.push_back(float_of(static_cast<uint32_t>(b) | 0x80000000u));
  }
  out.resize(in.size());
  fast_map(c.fn, in.data(), out.data(), static_cast<int64_t>(in.size()));
  double worst = 0;
  size_t worst_i = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double e = bound_fraction(c, out[i], c.exact(in[i]));
    if (e > worst) worst = e, worst_i = i;
  }
  EXPECT_LE(worst, 1.0) << c.name << " at x = " << in[worst_i] << " gives " << out[worst_i]
                        << ", libm " << c.exact(in[worst_i]);
}

// The float patterns of [lo, hi] (lo, hi >= 0).
void expect_within_bound(const FastMathCase& c, float lo, float hi, uint32_t step = 1) {
  expect_within_bound(c, std::bit_cast<uint32_t>(lo), std::bit_cast<uint32_t>(hi), step);
}

TEST(FastMath, SampleOfAllFloatsWithinStatedBounds) {
  test::on_every_target([] {
    for (const auto& c : kFastMathCases) expect_within_bound(c, 0u, 0x7fffffffu, 8209);
  });
}

// Each function's switches, clamps and tails, densely.
void expect_thresholds_within_bounds() {
  // exp: overflow from 88.72 on, denormal results below -87.34, zero below -103.97.
  expect_within_bound(find_case("exp"), 88.0f, 90.0f);
  expect_within_bound(find_case("exp"), 86.0f, 105.0f, 37);
  // log: the polynomial's ends at sqrt(1/2) and sqrt(2), and just around 1.
  expect_within_bound(find_case("log"), 0.70f, 0.71f);
  expect_within_bound(find_case("log"), 1.41f, 1.42f);
  expect_within_bound(find_case("log"), 0.999f, 1.001f);
  // tanh: x itself below 4e-4, the clamp at 7.905 and saturation at 9.02.
  expect_within_bound(find_case("tanh"), 3e-4f, 5e-4f, 61);
  expect_within_bound(find_case("tanh"), 7.5f, 9.5f, 7);
  // sigmoid: its denormal tail.
  expect_within_bound(find_case("sigmoid"), 86.0f, 105.0f, 37);
  // erf: the switches at 1 and 2 and saturation at 3.92.
  for (float at : {1.0f, 2.0f, 3.92f})
    expect_within_bound(find_case("erf"), at - 0.02f, at + 0.02f, 5);
  // Gelu: its switches (x/sqrt 2 at 1 and 2) and its negative tail down to underflow.
  for (float at : {1.41421356f, 2.82842712f})
    expect_within_bound(find_case("gelu"), at - 0.02f, at + 0.02f, 5);
  expect_within_bound(find_case("gelu"), 9.0f, 17.0f, 37);
  expect_within_bound(find_case("gelu_tanh"), 9.0f, 17.0f, 37);
}

TEST(FastMath, DenormalsAndNearOneWithinStatedBounds) {
  for (const auto& c : kFastMathCases) {
    expect_within_bound(c, 0u, 0x00800000u, 509);  // denormals
    expect_within_bound(c, 0.5f, 2.0f, 61);        // around 1
  }
}

TEST(FastMath, ThresholdRegionsDenselyWithinStatedBounds) {
  test::on_every_target(expect_thresholds_within_bounds);
}

// The special values below through the kernels' loops on every target: the same results
// as the scalar functions give (NaN for NaN).
TEST(FastMath, SpecialValuesThroughTheKernelsLoops) {
  const float in[] = {kNaN,
                      -kNaN,
                      kInf,
                      -kInf,
                      0.0f,
                      -0.0f,
                      std::numeric_limits<float>::denorm_min(),
                      std::numeric_limits<float>::max()};
  constexpr int64_t kCount = sizeof(in) / sizeof(in[0]);
  test::on_every_target([&] {
    for (const auto& c : kFastMathCases) {
      float out[kCount];
      fast_map(c.fn, in, out, kCount);
      for (int64_t i = 0; i < kCount; ++i) {
        const float want = c.fast(in[i]);
        if (std::isnan(want))
          EXPECT_TRUE(std::isnan(out[i])) << c.name << "(" << in[i] << ")";
        else
          EXPECT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(want))
              << c.name << "(" << in[i] << ") = " << out[i] << ", scalar " << want;
      }
    }
  });
}

TEST(FastMath, SpecialValues) {
  const float denorm_min = std::numeric_limits<float>::denorm_min();
  const float flt_max = std::numeric_limits<float>::max();
  for (const auto& c : kFastMathCases) {
    EXPECT_TRUE(std::isnan(c.fast(kNaN))) << c.name;
    EXPECT_TRUE(std::isnan(c.fast(-kNaN))) << c.name;
  }
  EXPECT_EQ(fast_exp(0.0f), 1.0f);
  EXPECT_EQ(fast_exp(-0.0f), 1.0f);
  EXPECT_EQ(fast_exp(kInf), kInf);
  EXPECT_EQ(fast_exp(-kInf), 0.0f);
  EXPECT_EQ(fast_exp(89.0f), kInf);
  EXPECT_EQ(fast_exp(88.7228394f), kInf);            // e^x = 3.40282367e38 rounds up
  EXPECT_EQ(fast_exp(88.7228317f), 3.40279851e38f);  // the largest finite result, libm's
  EXPECT_EQ(fast_exp(-104.0f), 0.0f);
  EXPECT_EQ(fast_exp(-103.2789f), denorm_min);  // e^x = 1.4013e-45
  EXPECT_EQ(fast_exp(flt_max), kInf);
  EXPECT_EQ(fast_exp(-flt_max), 0.0f);

  EXPECT_EQ(fast_log(0.0f), -kInf);
  EXPECT_EQ(fast_log(-0.0f), -kInf);
  EXPECT_TRUE(std::isnan(fast_log(-1.0f)));
  EXPECT_TRUE(std::isnan(fast_log(-denorm_min)));
  EXPECT_TRUE(std::isnan(fast_log(-kInf)));
  EXPECT_EQ(fast_log(kInf), kInf);
  EXPECT_EQ(fast_log(1.0f), 0.0f);
  EXPECT_NEAR(fast_log(denorm_min), -103.278929903, 1e-5);  // -149 ln 2
  EXPECT_NEAR(fast_log(flt_max), 88.7228391117, 1e-5);

  using FloatFn = float (*)(float);
  const FloatFn saturating[] = {fast_tanh, fast_erf};
  for (FloatFn fn : saturating) {
    EXPECT_EQ(fn(kInf), 1.0f);
    EXPECT_EQ(fn(-kInf), -1.0f);
    EXPECT_EQ(fn(0.0f), 0.0f);
    EXPECT_TRUE(std::signbit(fn(-0.0f)));
    EXPECT_EQ(fn(denorm_min * 8), fn == FloatFn{fast_tanh} ? denorm_min * 8 : denorm_min * 9);
  }
  EXPECT_EQ(fast_tanh(1e-30f), 1e-30f);  // tiny inputs are returned exactly
  EXPECT_EQ(fast_tanh(9.1f), 1.0f);

  EXPECT_EQ(fast_sigmoid(0.0f), 0.5f);
  EXPECT_EQ(fast_sigmoid(kInf), 1.0f);
  EXPECT_EQ(fast_sigmoid(-kInf), 0.0f);
  EXPECT_EQ(fast_sigmoid(-120.0f), 0.0f);

  const FloatFn gelus[] = {fast_gelu, fast_gelu_tanh};
  for (FloatFn fn : gelus) {
    EXPECT_EQ(fn(kInf), kInf);
    EXPECT_EQ(fn(-kInf), 0.0f);  // -0 or 0: the limit from below is -0
    EXPECT_EQ(fn(0.0f), 0.0f);
    EXPECT_EQ(fn(-20.0f), 0.0f);
    EXPECT_EQ(fn(flt_max), flt_max);
    EXPECT_EQ(fn(100.0f), 100.0f);
  }
}

}  // namespace
}  // namespace bough::kernels
