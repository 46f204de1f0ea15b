// Cast between element types (kernels/convert.h) against a per-element reference: each
// source element is decoded to an exact integer or a double with the scalar functions of
// ir/float_formats.h, then encoded to the target by the rule Cast documents. Every pair of
// numeric types, source values that include every code of the 8-bit float types, random
// bit patterns, integer limits and values next to rounding boundaries.
#include "kernels/convert.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "model_builder.h"
#include "reference.h"

namespace bough::kernels {
namespace {

using test::Rng;

// ---- the reference ----------------------------------------------------------------------

// One source element: an exact integer (signed, or unsigned for uint64) or a real.
struct Num {
  enum Kind { Int, UInt, Real } kind;
  int64_t i = 0;
  uint64_t u = 0;
  double d = 0;
};

Num decode(const Tensor& x, int64_t i) {
  const ElemType t = x.type();
  const auto* bytes = static_cast<const uint8_t*>(x.raw());
  auto real = [](double d) { return Num{Num::Real, 0, 0, d}; };
  auto integer = [](int64_t v) { return Num{Num::Int, v, 0, 0}; };
  switch (t) {
    case ElemType::Bool:
      return integer(x.data<bool>()[i] ? 1 : 0);
    case ElemType::Int8:
      return integer(x.data<int8_t>()[i]);
    case ElemType::Int16:
      return integer(x.data<int16_t>()[i]);
    case ElemType::Int32:
      return integer(x.data<int32_t>()[i]);
    case ElemType::Int64:
      return integer(x.data<int64_t>()[i]);
    case ElemType::UInt8:
      return integer(x.data<uint8_t>()[i]);
    case ElemType::UInt16:
      return integer(x.data<uint16_t>()[i]);
    case ElemType::UInt32:
      return integer(x.data<uint32_t>()[i]);
    case ElemType::UInt64:
      return Num{Num::UInt, 0, x.data<uint64_t>()[i], 0};
    case ElemType::Int4:
    case ElemType::Int2:
      return integer(sign_extend(get_packed(bytes, i, elem_bits(t)), elem_bits(t)));
    case ElemType::UInt4:
    case ElemType::UInt2:
      return integer(get_packed(bytes, i, elem_bits(t)));
    case ElemType::Float:
      return real(x.data<float>()[i]);
    case ElemType::Double:
      return real(x.data<double>()[i]);
    case ElemType::Float16:
      return real(half_to_float(x.data<uint16_t>()[i]));
    case ElemType::BFloat16:
      return real(bfloat16_to_float(x.data<uint16_t>()[i]));
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      return real(float8_to_float(t, bytes[i]));
    case ElemType::Float8E8M0:
      return real(e8m0_to_float(bytes[i]));
    case ElemType::Float4E2M1:
      return real(float4e2m1_to_float(get_packed(bytes, i, 4)));
    default:
      ADD_FAILURE() << "no decoding for " << elem_name(t);
      return real(0);
  }
}

// The float nearest to `d`, except that an inexact result takes the neighbour with an odd
// last bit ("round to odd"). Rounding that to a narrower format is then the same as
// rounding `d` directly, which is how a double becomes a float16 in one correct rounding.
float round_to_odd(double d) {
  const float f = static_cast<float>(d);
  if (std::isnan(d) || std::isinf(f) || static_cast<double>(f) == d) return f;
  if (std::bit_cast<uint32_t>(f) & 1u) return f;
  return std::nextafter(f, static_cast<double>(f) < d ? INFINITY : -INFINITY);
}

// Integer to float in one rounding (as numpy and C++ convert int64 -> float32).
float int_to_float(const Num& n) {
  return n.kind == Num::UInt ? static_cast<float>(n.u) : static_cast<float>(n.i);
}
double as_double(const Num& n) {
  return n.kind == Num::Real   ? n.d
         : n.kind == Num::UInt ? static_cast<double>(n.u)
                               : static_cast<double>(n.i);
}

// Float to integer: NaN gives 0, otherwise truncate toward zero and clamp to the range.
template <typename T>
T clamp_to(double d) {
  if (std::isnan(d)) return 0;
  const long double t = std::trunc(static_cast<long double>(d));
  if (t <= static_cast<long double>(std::numeric_limits<T>::lowest()))
    return std::numeric_limits<T>::lowest();
  if (t >= static_cast<long double>(std::numeric_limits<T>::max()))
    return std::numeric_limits<T>::max();
  return static_cast<T>(t);
}

// Integer to integer: the low bits (two's complement wrap).
template <typename T>
T wrap_to(const Num& n) {
  return static_cast<T>(n.kind == Num::UInt ? n.u : static_cast<uint64_t>(n.i));
}

template <typename T>
T to_int(const Num& n) {
  return n.kind == Num::Real ? clamp_to<T>(n.d) : wrap_to<T>(n);
}

// The float32 value narrow float targets (bfloat16, float8, float4) are rounded from, as
// ONNX's reference implementation rounds: a double or an integer goes to float32 first.
float via_float32(const Num& n) {
  return n.kind == Num::Real ? static_cast<float>(n.d) : int_to_float(n);
}

void encode(Tensor& out, int64_t i, const Num& n, const CastOptions& o) {
  auto* bytes = static_cast<uint8_t*>(out.raw());
  const ElemType t = out.type();
  switch (t) {
    case ElemType::Bool:
      out.data<bool>()[i] = n.kind == Num::Real ? n.d != 0 : (n.i != 0 || n.u != 0);
      return;
    case ElemType::Int8:
      out.data<int8_t>()[i] = to_int<int8_t>(n);
      return;
    case ElemType::Int16:
      out.data<int16_t>()[i] = to_int<int16_t>(n);
      return;
    case ElemType::Int32:
      out.data<int32_t>()[i] = to_int<int32_t>(n);
      return;
    case ElemType::Int64:
      out.data<int64_t>()[i] = to_int<int64_t>(n);
      return;
    case ElemType::UInt8:
      out.data<uint8_t>()[i] = to_int<uint8_t>(n);
      return;
    case ElemType::UInt16:
      out.data<uint16_t>()[i] = to_int<uint16_t>(n);
      return;
    case ElemType::UInt32:
      out.data<uint32_t>()[i] = to_int<uint32_t>(n);
      return;
    case ElemType::UInt64:
      out.data<uint64_t>()[i] = to_int<uint64_t>(n);
      return;
    case ElemType::Float:
      out.data<float>()[i] = n.kind == Num::Real ? static_cast<float>(n.d) : int_to_float(n);
      return;
    case ElemType::Double:
      out.data<double>()[i] = as_double(n);
      return;
    case ElemType::Float16:
      out.data<uint16_t>()[i] = float_to_half(round_to_odd(as_double(n)));
      return;
    case ElemType::BFloat16:
      out.data<uint16_t>()[i] = float_to_bfloat16(via_float32(n));
      return;
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ:
      bytes[i] = float_to_float8(t, via_float32(n), o.saturate);
      return;
    case ElemType::Float8E8M0:
      bytes[i] = float_to_e8m0(via_float32(n), o.saturate, o.round);
      return;
    case ElemType::Float4E2M1:
      set_packed(bytes, i, 4, float_to_float4e2m1(via_float32(n)));
      return;
    case ElemType::Int4:
    case ElemType::UInt4:
    case ElemType::Int2:
    case ElemType::UInt2:
      set_packed(bytes, i, elem_bits(t),
                 n.kind == Num::Real
                     ? cast_to_small_int(t, n.d)
                     : wrap_to_small_int(t, static_cast<int64_t>(wrap_to<uint64_t>(n))));
      return;
    default:
      ADD_FAILURE() << "no encoding for " << elem_name(t);
  }
}

// Cast to the same type is the identity (NaN payloads included); otherwise element by
// element.
Tensor reference_cast(const Tensor& x, ElemType to, const CastOptions& o) {
  if (x.type() == to) return x.clone();
  Tensor out = Tensor::zeros(to, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i) encode(out, i, decode(x, i), o);
  return out;
}

// ---- source values ----------------------------------------------------------------------

const ElemType kNumeric[] = {
    ElemType::Bool,       ElemType::Int8,           ElemType::Int16,
    ElemType::Int32,      ElemType::Int64,          ElemType::UInt8,
    ElemType::UInt16,     ElemType::UInt32,         ElemType::UInt64,
    ElemType::Float,      ElemType::Double,         ElemType::Float16,
    ElemType::BFloat16,   ElemType::Float8E4M3FN,   ElemType::Float8E4M3FNUZ,
    ElemType::Float8E5M2, ElemType::Float8E5M2FNUZ, ElemType::Float8E8M0,
    ElemType::Float4E2M1, ElemType::Int4,           ElemType::UInt4,
    ElemType::Int2,       ElemType::UInt2};

// Values next to rounding decisions: halfway cases of the narrow formats, their largest
// finite values and what lies just past them, integer limits.
const double kEdgeReals[] = {0.0,
                             -0.0,
                             0.5,
                             -0.5,
                             1.5,
                             2.5,
                             -2.5,
                             0.49999999999999994,
                             65504.0,
                             65519.99,
                             65520.0,
                             448.0,
                             464.0,
                             57344.0,
                             61440.0,
                             6.0,
                             7.0,
                             1.0 + 0x1p-11 + 0x1p-40,  // just above a float16 halfway point
                             1.0 + 0x1p-8 + 0x1p-30,   // just above a bfloat16 halfway point
                             127.9,
                             128.0,
                             -128.5,
                             -129.0,
                             255.5,
                             256.0,
                             2147483647.0,
                             2147483648.0,
                             -2147483649.0,
                             9223372036854775807.0,
                             -9223372036854775808.0,
                             18446744073709551615.0,
                             1e300,
                             -1e300,
                             1e-300,
                             0x1p-24,
                             0x1p-25,
                             0x1p-149,
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::quiet_NaN()};

const int64_t kEdgeInts[] = {0,
                             1,
                             -1,
                             7,
                             8,
                             -9,
                             127,
                             128,
                             -129,
                             255,
                             256,
                             65504,
                             65520,
                             (int64_t{1} << 24) + (int64_t{1} << 16) + 1,  // bfloat16 rounds up
                             (int64_t{1} << 24) + 1,
                             (int64_t{1} << 53) + 1,
                             (int64_t{1} << 60) + (int64_t{1} << 36) + 1,  // float32 rounds up
                             std::numeric_limits<int32_t>::max(),
                             std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int64_t>::max(),
                             std::numeric_limits<int64_t>::min()};

// About 600 elements of type t: the edge values that fit, every code for 8-bit and
// smaller types, random bit patterns and random moderate values.
Tensor sources(ElemType t, Rng& rng) {
  const int64_t n = 640;
  Tensor x = Tensor::zeros(t, Dims{n});
  auto* bytes = static_cast<uint8_t*>(x.raw());
  if (t == ElemType::Bool) {
    for (int64_t i = 0; i < n; ++i) x.data<bool>()[i] = rng.chance(0.5);
    return x;
  }
  for (size_t b = 0; b < x.nbytes(); ++b) bytes[b] = static_cast<uint8_t>(rng.bits());  // random
  for (size_t b = 0; b < std::min<size_t>(256, x.nbytes()); ++b)
    bytes[b] = static_cast<uint8_t>(b);  // every code of the 8-bit and smaller types
  int64_t at = 256;
  const bool is_float = is_float_type(t);
  if (is_float && elem_bits(t) >= 16) {
    for (double v : kEdgeReals) {
      if (t == ElemType::Float)
        x.data<float>()[at++] = static_cast<float>(v);
      else if (t == ElemType::Double)
        x.data<double>()[at++] = v;
      else if (t == ElemType::Float16)
        x.data<uint16_t>()[at++] = float_to_half(static_cast<float>(v));
      else
        x.data<uint16_t>()[at++] = float_to_bfloat16(static_cast<float>(v));
    }
    for (; at < 450; ++at) {  // moderate values, and small integers exactly
      const double v = at % 2 ? rng.real(-300, 300) : static_cast<double>(rng.uniform(-300, 300));
      if (t == ElemType::Float)
        x.data<float>()[at] = static_cast<float>(v);
      else if (t == ElemType::Double)
        x.data<double>()[at] = v;
      else if (t == ElemType::Float16)
        x.data<uint16_t>()[at] = float_to_half(static_cast<float>(v));
      else
        x.data<uint16_t>()[at] = float_to_bfloat16(static_cast<float>(v));
    }
  } else if (!is_float && elem_bits(t) >= 16) {
    for (int64_t v : kEdgeInts) {
      switch (t) {
        case ElemType::Int16:
          x.data<int16_t>()[at++] = static_cast<int16_t>(v);
          break;
        case ElemType::Int32:
          x.data<int32_t>()[at++] = static_cast<int32_t>(v);
          break;
        case ElemType::Int64:
          x.data<int64_t>()[at++] = v;
          break;
        case ElemType::UInt16:
          x.data<uint16_t>()[at++] = static_cast<uint16_t>(v);
          break;
        case ElemType::UInt32:
          x.data<uint32_t>()[at++] = static_cast<uint32_t>(v);
          break;
        case ElemType::UInt64:
          x.data<uint64_t>()[at++] = static_cast<uint64_t>(v);
          break;
        default:
          break;
      }
    }
  }
  return x;
}

std::string first_difference(const Tensor& got, const Tensor& want, const Tensor& x) {
  const auto* g = static_cast<const uint8_t*>(got.raw());
  const auto* w = static_cast<const uint8_t*>(want.raw());
  for (size_t b = 0; b < got.nbytes(); ++b) {
    if (g[b] == w[b]) continue;
    const int64_t i = static_cast<int64_t>(b * 8 / static_cast<size_t>(elem_bits(got.type())));
    const Num n = decode(x, i);
    char source[64];
    if (n.kind == Num::Real)
      std::snprintf(source, sizeof source, "%a", n.d);
    else if (n.kind == Num::UInt)
      std::snprintf(source, sizeof source, "%llu", static_cast<unsigned long long>(n.u));
    else
      std::snprintf(source, sizeof source, "%lld", static_cast<long long>(n.i));
    return "element " + std::to_string(i) + " (source " + source + "): got " +
           std::to_string(got.get_double(i)) + ", want " + std::to_string(want.get_double(i));
  }
  return "";
}

// ---- the tests --------------------------------------------------------------------------

// Every numeric source type to every numeric target type.
TEST(Convert, EveryPairMatchesReference) {
  Rng rng(41);
  for (ElemType from : kNumeric) {
    const Tensor x = sources(from, rng);
    for (ElemType to : kNumeric) {
      SCOPED_TRACE(std::string(elem_name(from)) + " -> " + std::string(elem_name(to)));
      const Tensor got = cast(x, to);
      ASSERT_EQ(got.type(), to);
      ASSERT_EQ(got.shape(), x.shape());
      const Tensor want = reference_cast(x, to, {});
      EXPECT_TRUE(test::bitwise_equal(got, want)) << first_difference(got, want, x);
    }
  }
}

// The non-default options: float8 without saturation (out of range gives NaN, or infinity
// for E5M2) and the three float8e8m0 rounding modes.
TEST(Convert, Float8OptionsMatchReference) {
  Rng rng(42);
  for (ElemType from : {ElemType::Float, ElemType::Double, ElemType::Float16, ElemType::Int32}) {
    const Tensor x = sources(from, rng);
    for (bool saturate : {true, false}) {
      for (E8M0Rounding round : {E8M0Rounding::Up, E8M0Rounding::Down, E8M0Rounding::Nearest}) {
        const CastOptions o{saturate, round};
        for (ElemType to : {ElemType::Float8E4M3FN, ElemType::Float8E4M3FNUZ, ElemType::Float8E5M2,
                            ElemType::Float8E5M2FNUZ, ElemType::Float8E8M0}) {
          SCOPED_TRACE(std::string(elem_name(from)) + " -> " + std::string(elem_name(to)) +
                       (saturate ? " saturating" : "") + " rounding " + std::to_string(int(round)));
          const Tensor got = cast(x, to, o);
          const Tensor want = reference_cast(x, to, o);
          EXPECT_TRUE(test::bitwise_equal(got, want)) << first_difference(got, want, x);
        }
      }
    }
  }
}

// Numbers to strings: integers in decimal, bools as True/False, floats in the shortest form
// that reads back to the same value (and NaN, INF, -INF).
TEST(Convert, NumbersToStringsAndBack) {
  Rng rng(43);
  const Tensor i = sources(ElemType::Int64, rng);
  const Tensor is = cast(i, ElemType::String);
  for (int64_t k = 0; k < i.numel(); ++k)
    ASSERT_EQ(is.strings()[k], std::to_string(i.data<int64_t>()[k]));
  const Tensor u = sources(ElemType::UInt64, rng);
  const Tensor us = cast(u, ElemType::String);
  for (int64_t k = 0; k < u.numel(); ++k)
    ASSERT_EQ(us.strings()[k], std::to_string(u.data<uint64_t>()[k]));
  EXPECT_EQ(cast(test::boolean({2}, {true, false}), ElemType::String).strings()[0], "True");
  for (ElemType t : {ElemType::Float, ElemType::Double}) {
    const Tensor x = sources(t, rng);
    const Tensor s = cast(x, ElemType::String);
    const Tensor back = cast(s, t);
    for (int64_t k = 0; k < x.numel(); ++k) {
      const double v = x.get_double(k);
      if (std::isnan(v)) {
        EXPECT_EQ(s.strings()[k], "NaN");
        EXPECT_TRUE(std::isnan(back.get_double(k)));
      } else {
        ASSERT_EQ(back.get_double(k), v) << "'" << s.strings()[k] << "'";
        if (std::isinf(v)) {
          EXPECT_EQ(s.strings()[k], v > 0 ? "INF" : "-INF");
        }
      }
    }
  }
}

// Strings to numbers: parsed as a double, then the real-to-target rule; text that is not a
// number is bad input.
TEST(Convert, StringsToNumbers) {
  Tensor s(ElemType::String, Dims{7});
  const char* texts[] = {"1.5", "-3", "1e3", "inf", "-INF", "NaN", "  42.9"};
  for (int k = 0; k < 7; ++k) s.strings()[k] = texts[k];
  for (ElemType to : kNumeric) {
    SCOPED_TRACE(elem_name(to));
    Tensor want = Tensor::zeros(to, s.shape());
    for (int k = 0; k < 7; ++k)
      encode(want, k, Num{Num::Real, 0, 0, std::strtod(texts[k], nullptr)}, {});
    EXPECT_TRUE(test::bitwise_equal(cast(s, to), want));
  }
  Tensor bad(ElemType::String, Dims{1});
  bad.strings()[0] = "seven";
  test::expect_bad_input([&] { cast(bad, ElemType::Float); });
}

// cast_into writes into the buffer `out` already holds when nothing else refers to it (a
// Cast in a Loop body allocates nothing), never into a buffer someone else holds, and
// shares x's buffer when the type does not change.
TEST(Convert, CastIntoReusesOnlyAnUnsharedBuffer) {
  const Tensor x = test::f32({3}, {1.5f, -2.5f, 3.5f});
  Tensor out(ElemType::Int32, Dims{3});
  const void* buffer = out.raw();
  cast_into(x, ElemType::Int32, out);
  EXPECT_EQ(out.raw(), buffer);
  EXPECT_EQ(out.data<int32_t>()[1], -2);
  const Tensor held = out;  // now shared: the next cast must not write into it
  cast_into(test::f32({3}, {7, 8, 9}), ElemType::Int32, out);
  EXPECT_NE(out.raw(), held.raw());
  EXPECT_EQ(held.data<int32_t>()[0], 1);
  EXPECT_EQ(out.data<int32_t>()[0], 7);
  Tensor same;
  cast_into(x, ElemType::Float, same);
  EXPECT_EQ(same.raw(), x.raw());
}

}  // namespace
}  // namespace bough::kernels
