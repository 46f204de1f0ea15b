// Pow: X ^ Y, multidirectional broadcasting. From opset 12 the exponent may have another
// type than the base; the result has the base's type. Integer powers are exact (wrapping
// on overflow); a negative integer exponent truncates the real result toward zero.
#include <cmath>
#include <limits>
#include <type_traits>

#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

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

// A real result converted to an integer base type: truncated, clamped, NaN gives 0.
template <typename B>
B to_base(double v) {
  if (std::isnan(v)) return 0;
  if (v <= static_cast<double>(std::numeric_limits<B>::lowest()))
    return std::numeric_limits<B>::lowest();
  if (v >= static_cast<double>(std::numeric_limits<B>::max())) return std::numeric_limits<B>::max();
  return static_cast<B>(v);
}

template <typename B, typename E>
B power(B x, E y) {
  if constexpr (std::is_integral_v<B> && std::is_integral_v<E>)
    return int_pow(x, y);
  else if constexpr (std::is_integral_v<B>)
    return to_base<B>(std::pow(static_cast<double>(x), static_cast<double>(y)));
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

Tensor compute(const Tensor& x, const Tensor& y, util::ThreadPool& pool) {
  const Tensor e = kernels::widen(y);
  return kernels::through_float(
      [&](const Tensor& x) {
        return visit_base(x.type(), [&](auto btag) {
          using B = typename decltype(btag)::type;
          return kernels::visit_numeric(e.type(), "Pow", [&](auto etag) {
            using E = typename decltype(etag)::type;
            return kernels::binary_map<B, E, B>(x, e, x.type(), pool,
                                                [](B a, E b) { return power(a, b); });
          });
        });
      },
      x);
}

}  // namespace

const OpDef& def_Pow() {
  static const OpDef def{
      "",
      "Pow",
      {1, 7, 12, 13, 15},
      2,
      2,
      1,
      1,
      make_binary<compute>,
      infer_broadcast,
      {{1, "X: T, Y: T -> Z: T; T = floats; axis: int?, broadcast: int = 0"},
       {7, "X: T, Y: T -> Z: T; T = floats"},
       {12, "X: T, Y: T1 -> Z: T; T = floats int32 int64, T1 = numeric"},
       {13, "X: T, Y: T1 -> Z: T; T = floats bfloat16 int32 int64, T1 = numeric"},
       {15, "X: T, Y: T1 -> Z: T; T = floats bfloat16 int32 int64, T1 = numeric bfloat16"}}};
  return def;
}

}  // namespace bough::ops
