// compare_values, the check behind `bough test-data`. Every expected verdict and message is
// worked out by hand: element encodings from the IEEE 754 and ONNX float8/float4/int4/int2
// layouts (sub-byte elements packed low bits first), tolerances from
// |a - e| <= atol + rtol * |e| with the default rtol 1e-3 and atol 1e-7.
#include "util/compare.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "model_builder.h"

namespace bough {
namespace {

using test::boolean;
using test::Dims64;
using test::f32;
using test::i64;

static_assert(std::endian::native == std::endian::little, "bit patterns below are little-endian");

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr float kNaNF = std::numeric_limits<float>::quiet_NaN();

Dims dims_of(const Dims64& d) { return Dims(std::span<const int64_t>(d)); }

// A tensor whose storage is exactly `bytes` (for the 16-, 8- and sub-byte kinds).
Tensor from_bytes(ElemType t, Dims64 dims, std::vector<uint8_t> bytes) {
  Tensor out(t, dims_of(dims));
  EXPECT_EQ(out.nbytes(), bytes.size()) << elem_name(t);
  std::memcpy(out.raw(), bytes.data(), std::min(out.nbytes(), bytes.size()));
  return out;
}

// 16-bit patterns (float16, bfloat16), stored little-endian.
Tensor from_u16(ElemType t, std::vector<uint16_t> bits) {
  std::vector<uint8_t> bytes;
  for (uint16_t b : bits) {
    bytes.push_back(static_cast<uint8_t>(b & 0xFF));
    bytes.push_back(static_cast<uint8_t>(b >> 8));
  }
  return from_bytes(t, {static_cast<int64_t>(bits.size())}, bytes);
}

template <typename T>
Tensor typed(ElemType t, std::vector<T> values) {
  return Tensor::from_vector<T>(t, {static_cast<int64_t>(values.size())}, values);
}

Tensor f64(std::vector<double> v) { return typed<double>(ElemType::Double, std::move(v)); }

// Complex tensors from (real, imaginary) pairs.
template <typename T>
Tensor complex(ElemType t, std::vector<T> parts) {
  Tensor out(t, {static_cast<int64_t>(parts.size() / 2)});
  EXPECT_EQ(out.nbytes(), parts.size() * sizeof(T));
  std::memcpy(out.raw(), parts.data(), parts.size() * sizeof(T));
  return out;
}
Tensor c64(std::vector<float> parts) { return complex(ElemType::Complex64, std::move(parts)); }
Tensor c128(std::vector<double> parts) { return complex(ElemType::Complex128, std::move(parts)); }

Tensor strings(std::vector<std::string> v) {
  Tensor t(ElemType::String, {static_cast<int64_t>(v.size())});
  for (size_t i = 0; i < v.size(); ++i) t.strings()[i] = v[i];
  return t;
}

std::string cmp(const Value& expected, const Value& actual, Tolerance tol = {}) {
  return compare_values(expected, actual, tol);
}

// ---- every element kind: equal accepted, a different element reported ----------------

struct KindCase {
  ElemType type;
  Tensor expected;
  Tensor equal;      // same contents, separate buffer
  Tensor different;  // element 1 differs
  std::string diff;  // the report for `different`
};

std::vector<KindCase> kind_cases() {
  using E = ElemType;
  std::vector<KindCase> c;
  auto add = [&](E t, Tensor e, Tensor same, Tensor other, std::string diff) {
    c.push_back({t, std::move(e), std::move(same), std::move(other), std::move(diff)});
  };
  // Floats: {1.5, -2} against {1.5, 2}. %.9g prints 2 and -2.
  const std::string two = "element 1 is 2, expected -2";
  add(E::Float, f32({2}, {1.5f, -2}), f32({2}, {1.5f, -2}), f32({2}, {1.5f, 2}), two);
  add(E::Double, f64({1.5, -2}), f64({1.5, -2}), f64({1.5, 2}), two);
  // float16: 1.5 = 0x3E00, -2 = 0xC000, 2 = 0x4000.
  add(E::Float16, from_u16(E::Float16, {0x3E00, 0xC000}), from_u16(E::Float16, {0x3E00, 0xC000}),
      from_u16(E::Float16, {0x3E00, 0x4000}), two);
  // bfloat16: 1.5 = 0x3FC0, -2 = 0xC000, 2 = 0x4000.
  add(E::BFloat16, from_u16(E::BFloat16, {0x3FC0, 0xC000}), from_u16(E::BFloat16, {0x3FC0, 0xC000}),
      from_u16(E::BFloat16, {0x3FC0, 0x4000}), two);
  // float8e4m3fn (bias 7): 1.5 = 0 0111 100, -2 = 1 1000 000, 2 = 0 1000 000.
  add(E::Float8E4M3FN, from_bytes(E::Float8E4M3FN, {2}, {0x3C, 0xC0}),
      from_bytes(E::Float8E4M3FN, {2}, {0x3C, 0xC0}),
      from_bytes(E::Float8E4M3FN, {2}, {0x3C, 0x40}), two);
  // float8e4m3fnuz (bias 8): 1.5 = 0 1000 100, -2 = 1 1001 000, 2 = 0 1001 000.
  add(E::Float8E4M3FNUZ, from_bytes(E::Float8E4M3FNUZ, {2}, {0x44, 0xC8}),
      from_bytes(E::Float8E4M3FNUZ, {2}, {0x44, 0xC8}),
      from_bytes(E::Float8E4M3FNUZ, {2}, {0x44, 0x48}), two);
  // float8e5m2 (bias 15): 1.5 = 0 01111 10, -2 = 1 10000 00, 2 = 0 10000 00.
  add(E::Float8E5M2, from_bytes(E::Float8E5M2, {2}, {0x3E, 0xC0}),
      from_bytes(E::Float8E5M2, {2}, {0x3E, 0xC0}), from_bytes(E::Float8E5M2, {2}, {0x3E, 0x40}),
      two);
  // float8e5m2fnuz (bias 16): 1.5 = 0 10000 10, -2 = 1 10001 00, 2 = 0 10001 00.
  add(E::Float8E5M2FNUZ, from_bytes(E::Float8E5M2FNUZ, {2}, {0x42, 0xC4}),
      from_bytes(E::Float8E5M2FNUZ, {2}, {0x42, 0xC4}),
      from_bytes(E::Float8E5M2FNUZ, {2}, {0x42, 0x44}), two);
  // float8e8m0 (2^(e-127), no sign): 1 = 0x7F, 4 = 0x81, 2 = 0x80.
  add(E::Float8E8M0, from_bytes(E::Float8E8M0, {2}, {0x7F, 0x81}),
      from_bytes(E::Float8E8M0, {2}, {0x7F, 0x81}), from_bytes(E::Float8E8M0, {2}, {0x7F, 0x80}),
      "element 1 is 2, expected 4");
  // float4e2m1 (bias 1): 1.5 = 0 01 1, -2 = 1 10 0, 2 = 0 10 0; element 0 in the low nibble.
  add(E::Float4E2M1, from_bytes(E::Float4E2M1, {2}, {0xC3}), from_bytes(E::Float4E2M1, {2}, {0xC3}),
      from_bytes(E::Float4E2M1, {2}, {0x43}), two);
  // Complex: {(1, 2), (3, -4)} against {(1, 2), (3, 4)}, stored as (real, imaginary) pairs.
  const std::string imag = "element 1 (imaginary part) is 4, expected -4";
  add(E::Complex64, c64({1, 2, 3, -4}), c64({1, 2, 3, -4}), c64({1, 2, 3, 4}), imag);
  add(E::Complex128, c128({1, 2, 3, -4}), c128({1, 2, 3, -4}), c128({1, 2, 3, 4}), imag);
  // Integers: exact.
  add(E::Int8, typed<int8_t>(E::Int8, {-128, 7}), typed<int8_t>(E::Int8, {-128, 7}),
      typed<int8_t>(E::Int8, {-128, 8}), "element 1 is 8, expected 7");
  add(E::UInt8, typed<uint8_t>(E::UInt8, {255, 7}), typed<uint8_t>(E::UInt8, {255, 7}),
      typed<uint8_t>(E::UInt8, {255, 8}), "element 1 is 8, expected 7");
  add(E::Int16, typed<int16_t>(E::Int16, {-32768, 7}), typed<int16_t>(E::Int16, {-32768, 7}),
      typed<int16_t>(E::Int16, {-32768, 8}), "element 1 is 8, expected 7");
  add(E::UInt16, typed<uint16_t>(E::UInt16, {65535, 7}), typed<uint16_t>(E::UInt16, {65535, 7}),
      typed<uint16_t>(E::UInt16, {65535, 8}), "element 1 is 8, expected 7");
  add(E::Int32, typed<int32_t>(E::Int32, {-5, 7}), typed<int32_t>(E::Int32, {-5, 7}),
      typed<int32_t>(E::Int32, {-5, -7}), "element 1 is -7, expected 7");
  add(E::UInt32, typed<uint32_t>(E::UInt32, {4294967295u, 7}),
      typed<uint32_t>(E::UInt32, {4294967295u, 7}), typed<uint32_t>(E::UInt32, {4294967295u, 8}),
      "element 1 is 8, expected 7");
  add(E::Int64, i64({2}, {-5, 7}), i64({2}, {-5, 7}), i64({2}, {-5, 8}),
      "element 1 is 8, expected 7");
  // uint64 values above 2^63 are reported as themselves, not wrapped to negative numbers.
  add(E::UInt64, typed<uint64_t>(E::UInt64, {1, 18446744073709551615u}),
      typed<uint64_t>(E::UInt64, {1, 18446744073709551615u}),
      typed<uint64_t>(E::UInt64, {1, 18446744073709551614u}),
      "element 1 is 18446744073709551614, expected 18446744073709551615");
  // int4: -3 = 0xD (low nibble), 5 = 0x5; 4 = 0x4.
  add(E::Int4, from_bytes(E::Int4, {2}, {0x5D}), from_bytes(E::Int4, {2}, {0x5D}),
      from_bytes(E::Int4, {2}, {0x4D}), "element 1 is 4, expected 5");
  // uint4: 12 = 0xC, 5 = 0x5; 4 = 0x4.
  add(E::UInt4, from_bytes(E::UInt4, {2}, {0x5C}), from_bytes(E::UInt4, {2}, {0x5C}),
      from_bytes(E::UInt4, {2}, {0x4C}), "element 1 is 4, expected 5");
  // int2: -2 = 0b10 (bits 0-1), 1 = 0b01 (bits 2-3); 0 = 0b00.
  add(E::Int2, from_bytes(E::Int2, {2}, {0x06}), from_bytes(E::Int2, {2}, {0x06}),
      from_bytes(E::Int2, {2}, {0x02}), "element 1 is 0, expected 1");
  // uint2: 3 = 0b11 (bits 0-1), 1 = 0b01 (bits 2-3); 2 = 0b10.
  add(E::UInt2, from_bytes(E::UInt2, {2}, {0x07}), from_bytes(E::UInt2, {2}, {0x07}),
      from_bytes(E::UInt2, {2}, {0x0B}), "element 1 is 2, expected 1");
  add(E::Bool, boolean({2}, {true, false}), boolean({2}, {true, false}), boolean({2}, {true, true}),
      "element 1 is 1, expected 0");
  add(E::String, strings({"a", "b"}), strings({"a", "b"}), strings({"a", "B"}),
      "element 1 is \"B\", expected \"b\"");
  return c;
}

TEST(Compare, CoversEveryElementKind) {
  std::set<int> covered;
  for (const KindCase& k : kind_cases()) covered.insert(static_cast<int>(k.type));
  for (int code = 1; code <= kLastElemType; ++code)
    EXPECT_TRUE(covered.count(code)) << elem_name(static_cast<ElemType>(code)) << " has no case";
}

TEST(Compare, EachKindAcceptsEqualAndReportsDifferent) {
  for (const KindCase& k : kind_cases()) {
    SCOPED_TRACE(std::string(elem_name(k.type)));
    ASSERT_EQ(k.expected.type(), k.type);
    EXPECT_EQ(cmp(k.expected, k.expected), "");
    EXPECT_EQ(cmp(k.expected, k.equal), "");
    EXPECT_EQ(cmp(k.expected, k.different), k.diff);
  }
}

TEST(Compare, ReportsTheFirstDifference) {
  EXPECT_EQ(cmp(f32({3}, {1, 2, 3}), f32({3}, {1, 5, 6})), "element 1 is 5, expected 2");
  EXPECT_EQ(cmp(i64({2, 2}, {1, 2, 3, 4}), i64({2, 2}, {1, 2, 3, 5})),
            "element 3 is 5, expected 4");
}

// Integers are compared as integers: 2^62 + 1 and 2^62 are the same double.
TEST(Compare, LargeIntegersExactly) {
  const int64_t big = int64_t{1} << 62;
  EXPECT_EQ(cmp(i64({1}, {big + 1}), i64({1}, {big + 1})), "");
  EXPECT_EQ(cmp(i64({1}, {big + 1}), i64({1}, {big})),
            "element 0 is 4611686018427387904, expected 4611686018427387905");
}

TEST(Compare, EmptyTensorsOfTheSameShapeMatch) {
  EXPECT_EQ(cmp(f32({0, 3}, {}), f32({0, 3}, {})), "");
  EXPECT_EQ(cmp(strings({}), strings({})), "");
}

// ---- infinities and NaN -----------------------------------------------------------------

TEST(Compare, InfinitiesMatchOnlyThemselves) {
  EXPECT_EQ(cmp(f64({kInf}), f64({kInf})), "");
  EXPECT_EQ(cmp(f64({-kInf}), f64({-kInf})), "");
  EXPECT_EQ(cmp(f64({kInf}), f64({-kInf})), "element 0 is -inf, expected inf");
  EXPECT_EQ(cmp(f64({-kInf}), f64({kInf})), "element 0 is inf, expected -inf");
  EXPECT_EQ(cmp(f64({kInf}), f64({1e30})), "element 0 is 1e+30, expected inf");
  EXPECT_EQ(cmp(f64({-kInf}), f64({0})), "element 0 is 0, expected -inf");
  EXPECT_EQ(cmp(f64({1e30}), f64({kInf})), "element 0 is inf, expected 1e+30");
  EXPECT_EQ(cmp(f64({kInf}), f64({kNaN})), "element 0 is nan, expected inf");
  // A huge tolerance does not make a finite value equal to infinity either.
  EXPECT_NE(cmp(f64({kInf}), f64({1}), Tolerance{1e300, 1e300}), "");
  EXPECT_EQ(cmp(f32({2}, {kInfF, -kInfF}), f32({2}, {kInfF, -kInfF})), "");
  EXPECT_EQ(cmp(f32({1}, {kInfF}), f32({1}, {1e30f})), "element 0 is 1.00000002e+30, expected inf");
  EXPECT_EQ(cmp(f32({1}, {kInfF}), f32({1}, {-kInfF})), "element 0 is -inf, expected inf");
}

TEST(Compare, NaNMatchesOnlyNaN) {
  EXPECT_EQ(cmp(f64({kNaN}), f64({kNaN})), "");
  EXPECT_EQ(cmp(f64({kNaN}), f64({-kNaN})), "");  // the sign of NaN does not matter
  EXPECT_EQ(cmp(f64({kNaN}), f64({0})), "element 0 is 0, expected nan");
  EXPECT_EQ(cmp(f64({0}), f64({kNaN})), "element 0 is nan, expected 0");
  EXPECT_EQ(cmp(f64({kNaN}), f64({kInf})), "element 0 is inf, expected nan");
  EXPECT_EQ(cmp(f32({1}, {kNaNF}), f32({1}, {kNaNF})), "");
  EXPECT_EQ(cmp(f32({1}, {kNaNF}), f32({1}, {0})), "element 0 is 0, expected nan");
  EXPECT_EQ(cmp(f32({1}, {0}), f32({1}, {kNaNF})), "element 0 is nan, expected 0");
}

// The special values of each floating kind that has them, as bit patterns. `big` is a large
// finite value of the kind.
struct Specials {
  ElemType type;
  std::optional<uint64_t> inf, neg_inf, nan;
  uint64_t big;
};

Tensor one_element(ElemType t, uint64_t bits) {
  Tensor out(t, {1});
  std::memcpy(out.raw(), &bits, out.nbytes());  // little-endian: the low bytes
  return out;
}

std::vector<Specials> specials() {
  using E = ElemType;
  return {
      {E::Float, std::bit_cast<uint32_t>(kInfF), std::bit_cast<uint32_t>(-kInfF),
       std::bit_cast<uint32_t>(kNaNF), std::bit_cast<uint32_t>(3e38f)},
      {E::Double, std::bit_cast<uint64_t>(kInf), std::bit_cast<uint64_t>(-kInf),
       std::bit_cast<uint64_t>(kNaN), std::bit_cast<uint64_t>(1e308)},
      {E::Float16, 0x7C00, 0xFC00, 0x7E00, 0x7BFF},                    // big = 65504
      {E::BFloat16, 0x7F80, 0xFF80, 0x7FC0, 0x7F7F},                   // big = 3.39e38
      {E::Float8E4M3FN, std::nullopt, std::nullopt, 0x7F, 0x7E},       // big = 448
      {E::Float8E4M3FNUZ, std::nullopt, std::nullopt, 0x80, 0x7F},     // big = 240
      {E::Float8E5M2, 0x7C, 0xFC, 0x7E, 0x7B},                         // big = 57344
      {E::Float8E5M2FNUZ, std::nullopt, std::nullopt, 0x80, 0x7F},     // big = 57344
      {E::Float8E8M0, std::nullopt, std::nullopt, 0xFF, 0xFE},         // big = 2^127
      {E::Float4E2M1, std::nullopt, std::nullopt, std::nullopt, 0x7},  // big = 6
  };
}

// Every floating kind goes through the same rule.
TEST(Compare, SpecialValuesOfEveryFloatKind) {
  for (const Specials& s : specials()) {
    SCOPED_TRACE(std::string(elem_name(s.type)));
    Tensor big = one_element(s.type, s.big);
    EXPECT_EQ(cmp(big, big), "");
    if (s.inf) {
      Tensor inf = one_element(s.type, *s.inf), neg = one_element(s.type, *s.neg_inf);
      EXPECT_EQ(cmp(inf, one_element(s.type, *s.inf)), "");
      EXPECT_EQ(cmp(neg, one_element(s.type, *s.neg_inf)), "");
      EXPECT_NE(cmp(inf, neg), "");
      EXPECT_NE(cmp(neg, inf), "");
      EXPECT_NE(cmp(inf, big), "");
      EXPECT_NE(cmp(big, inf), "");
    }
    if (s.nan) {
      Tensor nan = one_element(s.type, *s.nan);
      EXPECT_EQ(cmp(nan, one_element(s.type, *s.nan)), "");
      EXPECT_NE(cmp(nan, big), "");
      EXPECT_NE(cmp(big, nan), "");
      if (s.inf) {
        EXPECT_NE(cmp(one_element(s.type, *s.inf), nan), "");
      }
    }
  }
}

TEST(Compare, ComplexPartsFollowTheSameRule) {
  EXPECT_EQ(cmp(c64({kInfF, kNaNF}), c64({kInfF, kNaNF})), "");
  EXPECT_EQ(cmp(c64({kInfF, 0}), c64({-kInfF, 0})), "element 0 (real part) is -inf, expected inf");
  EXPECT_EQ(cmp(c64({kInfF, 0}), c64({1e30f, 0})),
            "element 0 (real part) is 1.00000002e+30, expected inf");
  EXPECT_EQ(cmp(c64({0, kNaNF}), c64({0, 0})), "element 0 (imaginary part) is 0, expected nan");
  EXPECT_EQ(cmp(c128({-kInf, 1}), c128({-kInf, 1})), "");
  EXPECT_EQ(cmp(c128({1, kInf}), c128({1, 1e30})),
            "element 0 (imaginary part) is 1e+30, expected inf");
  EXPECT_EQ(cmp(c128({0, 1}), c128({kNaN, 1})), "element 0 (real part) is nan, expected 0");
  EXPECT_EQ(cmp(c128({1, 1}), c128({1.0005, 1})), "");  // within rtol
}

// ---- tolerance: |a - e| <= atol + rtol * |e| ----------------------------------------------

TEST(Compare, WithinAndJustBeyondTheDefaultTolerance) {
  // e = 1: the bound is 1e-7 + 1e-3 = 0.0010001.
  EXPECT_EQ(cmp(f64({1}), f64({1.001})), "");
  EXPECT_EQ(cmp(f64({1}), f64({0.999})), "");
  EXPECT_EQ(cmp(f64({1}), f64({1.00101})), "element 0 is 1.00101, expected 1");
  EXPECT_EQ(cmp(f64({1}), f64({0.99899})), "element 0 is 0.99899, expected 1");
  // e = 0: only atol, 1e-7, remains.
  EXPECT_EQ(cmp(f64({0}), f64({1e-7})), "");
  EXPECT_EQ(cmp(f64({0}), f64({-1e-7})), "");
  EXPECT_EQ(cmp(f64({0}), f64({1.1e-7})), "element 0 is 1.1e-07, expected 0");
  // e = 1000: the bound is 1.0000001.
  EXPECT_EQ(cmp(f32({1}, {1000}), f32({1}, {1000.9f})), "");
  EXPECT_EQ(cmp(f32({1}, {1000}), f32({1}, {1001.5f})), "element 0 is 1001.5, expected 1000");
  // float16 near 1 has steps of 2^-10 = 0.0009765625: one step is within, two are not.
  EXPECT_EQ(cmp(from_u16(ElemType::Float16, {0x3C00}), from_u16(ElemType::Float16, {0x3C01})), "");
  EXPECT_EQ(cmp(from_u16(ElemType::Float16, {0x3C00}), from_u16(ElemType::Float16, {0x3C02})),
            "element 0 is 1.00195312, expected 1");
}

TEST(Compare, RelativeToleranceScalesWithTheExpectedValue) {
  const Tolerance half{0.5, 0};
  EXPECT_EQ(cmp(f64({2}), f64({1}), half), "");                                    // 1 <= 1
  EXPECT_EQ(cmp(f64({1}), f64({2}), half), "element 0 is 2, expected 1");          // 1 > 0.5
  EXPECT_EQ(cmp(f64({-2}), f64({-3}), half), "");                                  // 1 <= 1
  EXPECT_EQ(cmp(f64({-2}), f64({-3.5}), half), "element 0 is -3.5, expected -2");  // 1.5 > 1
}

TEST(Compare, ZeroToleranceIsExact) {
  const Tolerance exact{0, 0};
  EXPECT_EQ(cmp(f64({1}), f64({1}), exact), "");
  EXPECT_EQ(cmp(f64({0.0}), f64({-0.0}), exact), "");
  EXPECT_NE(cmp(f64({1}), f64({std::nextafter(1.0, 2.0)}), exact), "");
}

// ---- type, shape and kind mismatches -------------------------------------------------------

TEST(Compare, ElementTypeMismatch) {
  EXPECT_EQ(cmp(f32({1}, {1}), f64({1})), "element type double, expected float");
  EXPECT_EQ(cmp(i64({1}, {1}), typed<int32_t>(ElemType::Int32, {1})),
            "element type int32, expected int64");
}

TEST(Compare, ShapeMismatch) {
  EXPECT_EQ(cmp(f32({2}, {1, 2}), f32({1, 2}, {1, 2})), "shape [1,2], expected [2]");
  EXPECT_EQ(cmp(f32({2, 3}, {1, 2, 3, 4, 5, 6}), f32({3, 2}, {1, 2, 3, 4, 5, 6})),
            "shape [3,2], expected [2,3]");
  EXPECT_EQ(cmp(f32({}, {1}), f32({1}, {1})), "shape [1], expected []");
  EXPECT_EQ(cmp(f32({0}, {}), f32({0, 1}, {})), "shape [0,1], expected [0]");
}

TEST(Compare, KindMismatch) {
  Value seq = Value::sequence(ElemType::Float, {f32({1}, {1})});
  EXPECT_EQ(cmp(f32({1}, {1}), seq), "got seq(tensor(float))[1 items], expected tensor(float)[1]");
  EXPECT_EQ(cmp(seq, f32({1}, {1})), "got tensor(float)[1], expected seq(tensor(float))[1 items]");
}

// ---- sequences and optionals ---------------------------------------------------------------

TEST(Compare, SequencesItemByItem) {
  auto seq = [](std::vector<Value> items) { return Value::sequence(ElemType::Float, items); };
  Value expected = seq({f32({1}, {1}), f32({2}, {2, 3})});
  EXPECT_EQ(cmp(expected, seq({f32({1}, {1}), f32({2}, {2, 3})})), "");
  EXPECT_EQ(cmp(expected, seq({f32({1}, {1}), f32({2}, {2, 4})})),
            "item 1: element 1 is 4, expected 3");
  EXPECT_EQ(cmp(expected, seq({f32({1}, {1}), f32({3}, {2, 3, 4})})),
            "item 1: shape [3], expected [2]");
  EXPECT_EQ(cmp(expected, seq({f32({1}, {1})})), "sequence has 1 items, expected 2");
  EXPECT_EQ(cmp(expected, seq({f32({1}, {1}), f32({2}, {2, 3}), f32({1}, {4})})),
            "sequence has 3 items, expected 2");
  EXPECT_EQ(cmp(seq({}), seq({})), "");
  EXPECT_EQ(cmp(seq({f32({1}, {kInfF})}), seq({f32({1}, {1e30f})})),
            "item 0: element 0 is 1.00000002e+30, expected inf");
  // Nested sequences name each level.
  Value nested = Value::sequence(ElemType::Float, {seq({}), expected});
  Value nested_other =
      Value::sequence(ElemType::Float, {seq({}), seq({f32({1}, {9}), f32({2}, {2, 3})})});
  EXPECT_EQ(cmp(nested, nested), "");
  EXPECT_EQ(cmp(nested, nested_other), "item 1: item 0: element 0 is 9, expected 1");
}

// An optional holding an element is the element itself; the empty optional is Value::none().
TEST(Compare, Optionals) {
  EXPECT_EQ(cmp(Value::none(), Value::none()), "");
  EXPECT_EQ(cmp(Value::none(), f32({1}, {1})), "got tensor(float)[1], expected optional(none)");
  EXPECT_EQ(cmp(f32({1}, {1}), Value::none()), "got optional(none), expected tensor(float)[1]");
  EXPECT_EQ(cmp(Value::none(), Value::sequence(ElemType::Float, {})),
            "got seq(tensor(float))[0 items], expected optional(none)");
  EXPECT_EQ(cmp(Value::sequence(ElemType::Float, {Value::none()}),
                Value::sequence(ElemType::Float, {Value::none()})),
            "");
  EXPECT_EQ(cmp(Value::sequence(ElemType::Float, {Value::none()}),
                Value::sequence(ElemType::Float, {f32({1}, {1})})),
            "item 0: got tensor(float)[1], expected optional(none)");
}

}  // namespace
}  // namespace bough
