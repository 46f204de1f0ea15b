// Unary maps with a stateful function (an attribute captured by a lambda), for operators
// that cannot use the default-constructed functors of ops/elementwise.h.
#pragma once

#include "kernels/through_float.h"
#include "ops/elementwise.h"
#include "util/from_double.h"

namespace bough::ops {

// f(v) for the element types K names; float16/bfloat16 are computed in float, with a
// computation of their own (see arith in ops/elementwise.h).
template <kernels::Types K, typename F>
Tensor map_values(const Tensor& x, util::ThreadPool& pool, const char* name, F f) {
  const ElemType t = x.type();
  if (kernels::is_narrow_float(t)) [[unlikely]]
    return kernels::computed_in_float(
        [&](const Tensor& x) {
          return kernels::unary_map<float, float>(x, ElemType::Float, pool, f);
        },
        x);
  return kernels::visit<K>(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::unary_map<T, T>(x, t, pool, [f](T v) { return util::stored_as<T>(f(v)); });
  });
}

// f(v) for float and double elements.
template <typename F>
Tensor float_map(const Tensor& x, util::ThreadPool& pool, const char* name, F f) {
  return map_values<kernels::Types::Float>(x, pool, name, f);
}

// f(v) for every numeric element type.
template <typename F>
Tensor numeric_map(const Tensor& x, util::ThreadPool& pool, const char* name, F f) {
  return map_values<kernels::Types::Numeric>(x, pool, name, f);
}

}  // namespace bough::ops
