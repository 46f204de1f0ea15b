// kernels/matmul_nbits.h: products with 2/4/8-bit block-quantized weights. A few blocks
// dequantized by hand (default, packed and float zero points; 2, 4 and 8 bits; one and
// several rows of a), then random shapes against a reference that dequantizes each field
// with its own bit arithmetic and sums in double: every row-group and column-group kernel
// (M 1..9, N not a multiple of 4 or 16), K not a multiple of the block, blocks 16..256, at
// 1 and 2 threads and on every vector target this machine runs. The float sum of k products
// differs from the exact one by at most about k * FLT_EPSILON * Σ|w a| (the zero points' term
// adds a sum of k_blocks more); the test allows (k + 2) * FLT_EPSILON * that sum.
#include "kernels/matmul_nbits.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "on_every_target.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

std::vector<float> product(const NBitsWeights& w, const std::vector<float>& a, int64_t m,
                           int threads = 1) {
  util::ThreadPool pool(threads);
  std::vector<float> c(static_cast<size_t>(m * w.shape().n), NAN);
  matmul_nbits(a.data(), m, w, c.data(), pool);
  return c;
}

// K = 32, N = 3, 4 bits, blocks of 16; A's one row is 1 over block 0 and +1, -1 alternately
// over block 1 (even k +1, odd k -1).
struct HandCase {
  NBitsShape shape{32, 3, 4, 16};
  // Row 0: block 0 bytes 0x21 (even k: 1, odd k: 2), block 1 bytes 0xF0 (even 0, odd 15).
  // Row 1: block 0 bytes 0x53 (3, 5), block 1 bytes 0x0C (12, 0). Row 2 as row 0.
  std::vector<uint8_t> b = [] {
    std::vector<uint8_t> v;
    for (uint8_t byte : {0x21, 0xF0, 0x53, 0x0C, 0x21, 0xF0}) v.insert(v.end(), 8, byte);
    return v;
  }();
  std::vector<float> scales{0.5f, 0.25f, 2.0f, 1.0f, 0.5f, 0.25f};
  std::vector<float> a = [] {
    std::vector<float> v(32, 1.0f);
    for (int k = 16; k < 32; k += 2) v[static_cast<size_t>(k + 1)] = -1.0f;
    return v;
  }();
};

TEST(MatMulNBits, DefaultZeroPointByHand) {
  // Zero point 8. Row 0: block 0 (1-8)*0.5 = -3.5 and (2-8)*0.5 = -3, eight each: -52; block 1
  // (0-8)*0.25 = -2 at even k (a = 1), (15-8)*0.25 = 1.75 at odd k (a = -1): -16 - 14 = -30.
  // Row 1: block 0 (3-8)*2 = -10 and (5-8)*2 = -6: -128; block 1 (12-8)*1 = 4 and
  // (0-8)*1 = -8 times -1: 32 + 64 = 96.
  HandCase h;
  NBitsWeights w;
  w.prepare(h.shape, h.b.data(), h.scales.data(), nullptr, nullptr);
  EXPECT_EQ(product(w, h.a, 1), (std::vector<float>{-82, -32, -82}));
}

TEST(MatMulNBits, PackedAndFloatZeroPointsByHand) {
  HandCase h;
  NBitsWeights w;
  // Packed: one byte a row, block 0 in the low nibble. Row 0: 8 and 8 (as the default);
  // row 1: 3 and 12, so block 0 gives (3-3)*2 = 0 and (5-3)*2 = 4: 32, and block 1 (12-12) = 0
  // and (0-12)*1 = -12 times -1: 96; row 2: 1 and 0, so block 0 gives (1-1)*0.5 = 0 and
  // (2-1)*0.5 = 0.5: 4, block 1 (0-0)*0.25 = 0 and 15*0.25 = 3.75 times -1: -30.
  const std::vector<uint8_t> zp{0x88, 0xC3, 0x01};
  w.prepare(h.shape, h.b.data(), h.scales.data(), zp.data(), nullptr);
  EXPECT_EQ(product(w, h.a, 1), (std::vector<float>{-82, 128, -26}));
  // Float: 7.5 in row 0's block 0: (1-7.5)*0.5 = -3.25 and (2-7.5)*0.5 = -2.75: -48, block 1 as
  // before (-30); the other rows as packed above.
  const std::vector<float> zf{7.5f, 8, 3, 12, 1, 0};
  w.prepare(h.shape, h.b.data(), h.scales.data(), nullptr, zf.data());
  EXPECT_EQ(product(w, h.a, 1), (std::vector<float>{-78, 128, -26}));
}

TEST(MatMulNBits, SeveralRowsByHand) {
  // Rows of a: the hand case's row, twice it, zeros, and the row negated (the four-row
  // kernel, then one more row on its own).
  HandCase h;
  std::vector<float> a;
  for (float factor : {1.0f, 2.0f, 0.0f, -1.0f, 1.0f})
    for (float x : h.a) a.push_back(factor * x);
  NBitsWeights w;
  w.prepare(h.shape, h.b.data(), h.scales.data(), nullptr, nullptr);
  EXPECT_EQ(product(w, a, 5), (std::vector<float>{-82, -32, -82, -164, -64, -164, 0, 0, 0, 82, 32,
                                                  82, -82, -32, -82}));
}

TEST(MatMulNBits, EightAndTwoBitsByHand) {
  // 8 bits, K = 16, one block: bytes 10 * i, zero point 100, scale 0.1, a = 1:
  // Σ (10 i - 100) * 0.1 = Σ (i - 10) = 120 - 160 = -40.
  std::vector<uint8_t> b8(16);
  for (int i = 0; i < 16; ++i) b8[static_cast<size_t>(i)] = static_cast<uint8_t>(10 * i);
  const std::vector<uint8_t> zp8{100};
  const std::vector<float> scale{0.1f};
  NBitsWeights w;
  w.prepare({16, 1, 8, 16}, b8.data(), scale.data(), zp8.data(), nullptr);
  const std::vector<float> ones(16, 1.0f);
  EXPECT_NEAR(product(w, ones, 1)[0], -40, 1e-4);
  // 2 bits, K = 16, one block of 4 bytes 0xE4: k % 4 = 0, 1, 2, 3; zero point 2, scale 1, so
  // W = k % 4 - 2. a = 1: 4 * (-2 - 1 + 0 + 1) = -8. a = k: per group of four from 4g,
  // -2 (4g) - (4g + 1) + (4g + 3) = 2 - 8g, over g = 0..3: 8 - 48 = -40.
  const std::vector<uint8_t> b2(4, 0xE4);
  const std::vector<float> one{1.0f};
  w.prepare({16, 1, 2, 16}, b2.data(), one.data(), nullptr, nullptr);
  EXPECT_EQ(product(w, ones, 1)[0], -8);
  std::vector<float> ramp(16);
  for (int k = 0; k < 16; ++k) ramp[static_cast<size_t>(k)] = static_cast<float>(k);
  EXPECT_EQ(product(w, ramp, 1)[0], -40);
}

TEST(MatMulNBits, RaggedLastBlockIgnoresItsPadding) {
  // K = 20 in blocks of 16: the second block holds 4 values and 12 padding fields, all 15
  // here; zero point 8, scale 1. Block 0: bytes 0x99 (9 - 8 = 1 each), block 1: 0xFF
  // (7 each). a = 1: 16 + 4 * 7 = 44; the padding would add 12 * 7 more.
  std::vector<uint8_t> b(8, 0x99);
  b.insert(b.end(), 8, 0xFF);
  const std::vector<float> scales{1, 1};
  NBitsWeights w;
  w.prepare({20, 1, 4, 16}, b.data(), scales.data(), nullptr, nullptr);
  EXPECT_EQ(product(w, std::vector<float>(20, 1.0f), 1)[0], 44);
}

// The fields of a little-endian bit stream, read one bit at a time.
int reference_field(const uint8_t* bytes, int64_t index, int64_t bits) {
  int value = 0;
  for (int64_t bit = 0; bit < bits; ++bit) {
    const int64_t at = index * bits + bit;
    value |= ((bytes[at / 8] >> (at % 8)) & 1) << bit;
  }
  return value;
}

enum class ZeroPoints { Default, Packed, Float };

void check_shape(const NBitsShape& s, int64_t m, ZeroPoints zps, Rng& rng, int threads) {
  SCOPED_TRACE("m " + std::to_string(m) + " k " + std::to_string(s.k) + " n " +
               std::to_string(s.n) + " bits " + std::to_string(s.bits) + " block " +
               std::to_string(s.block) + " zero points " + std::to_string(static_cast<int>(zps)) +
               " threads " + std::to_string(threads));
  const int64_t blocks = s.blocks(), zp_row = (blocks * s.bits + 7) / 8;
  std::vector<uint8_t> b(static_cast<size_t>(s.n * blocks * s.blob()));
  for (uint8_t& x : b) x = static_cast<uint8_t>(rng.uniform(0, 255));
  std::vector<float> scales(static_cast<size_t>(s.n * blocks));
  for (float& x : scales) x = static_cast<float>(rng.real(-0.1, 0.1));
  std::vector<uint8_t> packed(static_cast<size_t>(s.n * zp_row));
  for (uint8_t& x : packed) x = static_cast<uint8_t>(rng.uniform(0, 255));
  std::vector<float> floats(static_cast<size_t>(s.n * blocks));
  for (float& x : floats) x = static_cast<float>(rng.real(0, (1 << s.bits) - 1));
  std::vector<float> a(static_cast<size_t>(m * s.k));
  for (float& x : a) x = static_cast<float>(rng.real(-1, 1));

  NBitsWeights w;
  w.prepare(s, b.data(), scales.data(), zps == ZeroPoints::Packed ? packed.data() : nullptr,
            zps == ZeroPoints::Float ? floats.data() : nullptr);
  const std::vector<float> c = product(w, a, m, threads);
  for (int64_t j = 0; j < s.n; ++j) {
    std::vector<double> wj(static_cast<size_t>(s.k));
    for (int64_t t = 0; t < s.k; ++t) {
      const int64_t kb = t / s.block, at = j * blocks + kb;
      const double q = reference_field(b.data() + at * s.blob(), t % s.block, s.bits);
      const double z = zps == ZeroPoints::Packed
                           ? reference_field(packed.data() + j * zp_row, kb, s.bits)
                       : zps == ZeroPoints::Float ? floats[static_cast<size_t>(at)]
                                                  : static_cast<double>(1 << (s.bits - 1));
      wj[static_cast<size_t>(t)] = (q - z) * scales[static_cast<size_t>(at)];
    }
    for (int64_t i = 0; i < m; ++i) {
      double want = 0, magnitude = 0;
      for (int64_t t = 0; t < s.k; ++t) {
        const double term = wj[static_cast<size_t>(t)] * a[static_cast<size_t>(i * s.k + t)];
        want += term;
        magnitude += std::fabs(term);
      }
      ASSERT_NEAR(c[static_cast<size_t>(i * s.n + j)], want,
                  (static_cast<double>(s.k) + 2) * FLT_EPSILON * magnitude + 1e-30)
          << "row " << i << " column " << j;
    }
  }
}

void check_random_shapes(Rng& rng, int trials) {
  const int64_t block_sizes[] = {16, 32, 64, 128, 256};
  const int64_t bit_counts[] = {2, 4, 8};
  for (int trial = 0; trial < trials; ++trial) {
    NBitsShape s;
    s.bits = bit_counts[rng.uniform(0, 2)];
    s.block = block_sizes[rng.uniform(0, 4)];
    s.k = rng.uniform(1, 3 * s.block);
    s.n = rng.uniform(1, 40);
    check_shape(s, rng.uniform(1, 9), static_cast<ZeroPoints>(rng.uniform(0, 2)), rng,
                static_cast<int>(rng.uniform(1, 2)));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST(MatMulNBits, RandomShapesMatchReference) {
  Rng rng(41);
  check_random_shapes(rng, 200);
}

TEST(MatMulNBits, TwoThreadsSplitLargeProducts) {
  // Large enough for both threads (M * N * K over twice the pool's minimum work): one row,
  // and 6 rows (a group of four, then two).
  Rng rng(42);
  check_shape({2048, 1030, 4, 32}, 1, ZeroPoints::Packed, rng, 2);
  check_shape({1000, 700, 4, 128}, 6, ZeroPoints::Default, rng, 2);
}

TEST(MatMulNBits, EveryRunnableVectorTargetMatchesReference) {
  // The stored layout does not depend on the target: weights prepared once serve all of them.
  Rng rng(43);
  test::on_every_target([&] { check_random_shapes(rng, 40); });
}

}  // namespace
}  // namespace bough::kernels
