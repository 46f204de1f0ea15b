// Pow: X ^ Y, multidirectional broadcasting. From opset 12 the exponent may have another
// type than the base; the result has the base's type. Integer powers are exact (wrapping
// on overflow); a negative integer exponent truncates the real result toward zero.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace pow_op {

// x^y for integers, by squaring, in unsigned arithmetic (two's complement wrap-around).
template <typename B, typename E>
B int_pow(B x, E y) {
  if constexpr (std::is_signed_v<E>) {
    if (y < 0) {
      if (x == 1) return 1;
      if constexpr (std::is_signed_v<B>)
        if (x == -1) return (y % 2 == 0) ? B(1) : B(-1);
      return 0;
    }
  }
  uint64_t base = static_cast<uint64_t>(x), result = 1;
  for (uint64_t e = static_cast<uint64_t>(y); e != 0; e >>= 1) {
    if (e & 1) result *= base;
    base *= base;
  }
  return static_cast<B>(result);
}

template <typename B, typename E>
B power(B x, E y) {
  if constexpr (std::is_integral_v<B> && std::is_integral_v<E>)
    return int_pow(x, y);
  else if constexpr (std::is_integral_v<B>)
    return util::from_double<B>(std::pow(static_cast<double>(x), static_cast<double>(y)));
  else if constexpr (std::is_same_v<B, float> && std::is_same_v<E, float>)
    return std::pow(x, y);
  else
    return static_cast<B>(std::pow(static_cast<double>(x), static_cast<double>(y)));
}

// The base types of the spec: float, double, int32, int64 (float16/bfloat16 via float).
template <typename F>
Tensor visit_base(ElemType t, F&& fn) {
  switch (t) {
    case ElemType::Float:
      return fn(kernels::Tag<float>{});
    case ElemType::Double:
      return fn(kernels::Tag<double>{});
    case ElemType::Int32:
      return fn(kernels::Tag<int32_t>{});
    case ElemType::Int64:
      return fn(kernels::Tag<int64_t>{});
    default:
      kernels::unsupported_type(t, "Pow");
  }
}

// The exponents computed by multiplies instead of pow: the integers -4..4 and 1/2.
constexpr double kSqrtExponent = 0.5;
constexpr int kMaxMultiplyExponent = 4;

// x^P by multiplies (P in -4..4): within 3 ulp of pow, with pow's special values
// (x^0 = 1 even for NaN, 0^-1 = inf, (-0)^-1 = -inf).
template <int P, typename T>
T power_by_multiplies(T x) {
  if constexpr (P < 0)
    return power_by_multiplies<-P>(T(1) / x);  // (1/x)^3 stays finite for x^3 = inf
  if constexpr (P == 0) return T(1);
  if constexpr (P == 1) return x;
  if constexpr (P == 2) return x * x;
  if constexpr (P == 3) return x * x * x;
  if constexpr (P == 4) return (x * x) * (x * x);
}

// x^0.5 as pow has it: sqrt, but (-0)^0.5 = +0 and (-inf)^0.5 = +inf.
template <typename T>
T power_half(T x) {
  return x == -std::numeric_limits<T>::infinity() ? -x : std::sqrt(x) + T(0);
}

// The exponent of `e` when every element of it is the same value and that value is one of
// the exponents above (as a double); otherwise NaN.
double common_multiply_exponent(const Tensor& e) {
  if (e.numel() == 0) return std::numeric_limits<double>::quiet_NaN();
  auto common = [&](auto tag) -> double {
    using E = typename decltype(tag)::type;
    const E* p = e.data<E>();
    for (int64_t i = 1; i < e.numel(); ++i)
      if (!(p[i] == p[0])) return std::numeric_limits<double>::quiet_NaN();
    return static_cast<double>(p[0]);
  };
  double v = std::numeric_limits<double>::quiet_NaN();
  switch (e.type()) {
    case ElemType::Float:
      v = common(kernels::Tag<float>{});
      break;
    case ElemType::Double:
      v = common(kernels::Tag<double>{});
      break;
    case ElemType::Int32:
      v = common(kernels::Tag<int32_t>{});
      break;
    case ElemType::Int64:
      v = common(kernels::Tag<int64_t>{});
      break;
    default:
      break;
  }
  const bool small_integer = v == std::round(v) && std::abs(v) <= kMaxMultiplyExponent;
  return small_integer || v == kSqrtExponent ? v : std::numeric_limits<double>::quiet_NaN();
}

// True when broadcasting `e` against `x` gives x's shape (e's dimensions, aligned at the
// right, are 1 or x's).
bool broadcasts_into(const Tensor& e, const Tensor& x) {
  if (e.rank() > x.rank()) return false;
  const size_t skip = x.rank() - e.rank();
  for (size_t d = 0; d < e.rank(); ++d)
    if (e.shape()[d] != 1 && e.shape()[d] != x.shape()[skip + d]) return false;
  return true;
}

// x^p elementwise by multiplies for a float or double base (p from common_multiply_exponent).
template <typename B>
Tensor power_by_multiplies(const Tensor& x, double p, util::ThreadPool& pool) {
  auto map = [&](auto fn) { return kernels::unary_map<B, B>(x, x.type(), pool, fn); };
  if (p == kSqrtExponent) return map([](B v) { return power_half(v); });
  switch (static_cast<int>(p)) {
    case -4:
      return map([](B v) { return power_by_multiplies<-4>(v); });
    case -3:
      return map([](B v) { return power_by_multiplies<-3>(v); });
    case -2:
      return map([](B v) { return power_by_multiplies<-2>(v); });
    case -1:
      return map([](B v) { return power_by_multiplies<-1>(v); });
    case 0:
      return map([](B v) { return power_by_multiplies<0>(v); });
    case 1:
      return map([](B v) { return power_by_multiplies<1>(v); });
    case 2:
      return map([](B v) { return power_by_multiplies<2>(v); });
    case 3:
      return map([](B v) { return power_by_multiplies<3>(v); });
    default:
      return map([](B v) { return power_by_multiplies<4>(v); });
  }
}

Tensor compute(const Tensor& x, const Tensor& y, util::ThreadPool& pool) {
  const Tensor e = kernels::widen(y);
  return kernels::through_float(
      [&](const Tensor& x) {
        return visit_base(x.type(), [&](auto btag) {
          using B = typename decltype(btag)::type;
          // A constant small exponent (tanh-Gelu's x^3, a square, a square root): checked
          // per run, which costs one look at the usually one-element exponent.
          if constexpr (std::is_floating_point_v<B>) {
            if (broadcasts_into(e, x)) {
              const double p = common_multiply_exponent(e);
              if (!std::isnan(p)) return power_by_multiplies<B>(x, p, pool);
            }
          }
          return kernels::visit_numeric(e.type(), "Pow", [&](auto etag) {
            using E = typename decltype(etag)::type;
            return kernels::binary_map<B, E, B>(x, e, x.type(), pool,
                                                [](B a, E b) { return power(a, b); });
          });
        });
      },
      x);
}

constexpr SignatureText kRows[] = {
    {1, "X: T, Y: T -> Z: T; T = floats; axis: int?, broadcast: int = 0"},
    {7, "X: T, Y: T -> Z: T; T = floats"},
    {12, "X: T, Y: T1 -> Z: T; T = floats int32 int64, T1 = numeric"},
    {13, "X: T, Y: T1 -> Z: T; T = floats bfloat16 int32 int64, T1 = numeric"},
    {15, "X: T, Y: T1 -> Z: T; T = floats bfloat16 int32 int64, T1 = numeric bfloat16"}};

}  // namespace pow_op
}  // namespace

OpDef def_Pow() {
  using namespace pow_op;
  return def_from_rows("", "Pow", make_binary<compute>, infer_broadcast, kRows);
}

}  // namespace bough::ops
