// The random operators' generator: a seed repeats its stream, and its uniform and normal
// draws pass distribution tests. Every statistical test uses a fixed seed, so its outcome
// never changes from run to run; the false-failure rate stated with each is the chance that
// a correct generator fails it for a seed picked at random (the bounds are 4 standard
// errors, or chi-square quantiles, both at about 1e-4).
#include "kernels/random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bough/error.h"

namespace bough::kernels {
namespace {

std::vector<double> uniforms(RandomStream& s, size_t n) {
  std::vector<double> v(n);
  for (double& x : v) x = s.uniform();
  return v;
}

// Pearson's chi-square of `counts` against `expected` counts.
double chi_square(const std::vector<int64_t>& counts, const std::vector<double>& expected) {
  double chi = 0;
  for (size_t i = 0; i < counts.size(); ++i)
    chi += std::pow(static_cast<double>(counts[i]) - expected[i], 2) / expected[i];
  return chi;
}

TEST(RandomStream, ASeedRepeatsItsStreamAndAnotherSeedDoesNot) {
  RandomStream a(7), b(7), c(8);
  const std::vector<double> first = uniforms(a, 100), again = uniforms(b, 100);
  EXPECT_EQ(first, again);
  EXPECT_NE(first, uniforms(c, 100));
}

TEST(RandomStream, WithoutASeedEachStreamDiffers) {
  RandomStream a = RandomStream::for_run(std::nullopt), b = RandomStream::for_run(std::nullopt);
  // 100 equal 53-bit draws from two seeds of 64 random bits: never, in practice.
  EXPECT_NE(uniforms(a, 100), uniforms(b, 100));
  RandomStream c = RandomStream::for_run(42), d = RandomStream::for_run(42);
  EXPECT_EQ(uniforms(c, 100), uniforms(d, 100));
}

// 100,000 uniforms in 10 equal bins: chi-square with 9 degrees of freedom, whose 1 - 1e-4
// quantile is 33.72 (false-failure rate 1e-4). All lie in [0, 1).
TEST(RandomStream, UniformIsUniformOnTheUnitInterval) {
  RandomStream s(2026);
  constexpr size_t n = 100000;
  std::vector<int64_t> counts(10, 0);
  for (double u : uniforms(s, n)) {
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    ++counts[static_cast<size_t>(u * 10)];
  }
  EXPECT_LT(chi_square(counts, std::vector<double>(10, n / 10.0)), 33.72);
}

// 100,000 normals: the mean within 4 standard errors of 0 (1/sqrt(n) each), the variance
// within 4 standard errors of 1 (sqrt(2/n)), and the counts in 8 bins cut at -1.5, -1, -0.5,
// 0, 0.5, 1, 1.5 (probabilities from the normal CDF) under chi-square with 7 degrees of
// freedom, whose 1 - 1e-4 quantile is 29.88. False-failure rate about 3e-4 for the three.
TEST(RandomStream, NormalIsStandardNormal) {
  RandomStream s(99);
  constexpr int64_t n = 100000;
  const double cuts[] = {-1.5, -1, -0.5, 0, 0.5, 1, 1.5};
  std::vector<int64_t> counts(8, 0);
  double sum = 0, sum_sq = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double z = s.normal();
    sum += z;
    sum_sq += z * z;
    size_t bin = 0;
    while (bin < 7 && z >= cuts[bin]) ++bin;
    ++counts[bin];
  }
  const double mean = sum / n, variance = sum_sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 4 / std::sqrt(double(n)));
  EXPECT_NEAR(variance, 1.0, 4 * std::sqrt(2.0 / n));
  auto cdf = [](double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); };
  std::vector<double> expected;
  double below = 0;
  for (double c : cuts) {
    expected.push_back((cdf(c) - below) * n);
    below = cdf(c);
  }
  expected.push_back((1 - below) * n);
  EXPECT_LT(chi_square(counts, expected), 29.88);
}

TEST(RandomStream, RoundsToEachFloatType) {
  // 0.1 in float16: 1638 / 16384 = 0.0999755859375 (10 bits of mantissa).
  EXPECT_EQ(round_to_type(ElemType::Float16, 0.1), 0.0999755859375);
  // In bfloat16 (7 bits): 0.10009765625 = 205 / 2048.
  EXPECT_EQ(round_to_type(ElemType::BFloat16, 0.1), 0.10009765625);
  EXPECT_EQ(round_to_type(ElemType::Float, 0.1), static_cast<double>(0.1f));
  EXPECT_EQ(round_to_type(ElemType::Double, 0.1), 0.1);
  EXPECT_THROW(round_to_type(ElemType::Int32, 0.1), Error);
}

// float16 holds 1 and then 1 + 2^-10: in [1, 1 + 2^-10) only 1 itself, though most draws
// in that range round up to the excluded high end. Every element must come out as 1.
TEST(RandomStream, UniformNeverRoundsOntoHigh) {
  RandomStream s(5);
  const Tensor t = uniform_tensor(ElemType::Float16, Dims{1000}, 1.0, 1.0 + 0x1.0p-10, s);
  ASSERT_EQ(t.type(), ElemType::Float16);
  for (int64_t i = 0; i < t.numel(); ++i) ASSERT_EQ(t.get_double(i), 1.0) << i;
}

// [1 + 2^-12, 1 + 2^-11) holds no float16 (neighbours 1 and 1 + 2^-10): a clear error.
TEST(RandomStream, UniformWithNoValueOfTheTypeInRangeFails) {
  RandomStream s(5);
  try {
    uniform_tensor(ElemType::Float16, Dims{3}, 1.0 + 0x1.0p-12, 1.0 + 0x1.0p-11, s);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::BadInput);
    EXPECT_NE(std::string(e.what()).find("no value of type float16"), std::string::npos)
        << e.what();
  }
}

TEST(RandomStream, NormalTensorHasTheTypeShapeAndParameters) {
  RandomStream s(11);
  const Tensor t = normal_tensor(ElemType::Double, Dims{200, 50}, -3.0, 0.5, s);
  ASSERT_EQ(t.type(), ElemType::Double);
  ASSERT_EQ(t.shape(), (Dims{200, 50}));
  double sum = 0;
  for (int64_t i = 0; i < t.numel(); ++i) sum += t.get_double(i);
  // Mean within 4 standard errors (0.5 / sqrt(10000)) of -3: false-failure rate 6e-5.
  EXPECT_NEAR(sum / t.numel(), -3.0, 4 * 0.5 / 100);
}

}  // namespace
}  // namespace bough::kernels
