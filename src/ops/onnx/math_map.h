// Unary maps with a stateful function (an attribute captured by a lambda), for operators
// that cannot use the default-constructed functors of ops/elementwise.h.
#pragma once

#include "kernels/through_float.h"
#include "ops/elementwise.h"

namespace bough::ops {

// f(v) for float and double elements; float16/bfloat16 are computed in float.
template <typename F>
Tensor float_map(const Tensor& x, util::ThreadPool& pool, const char* name, F f) {
  return kernels::through_float(
      [&](const Tensor& x) {
        const ElemType t = x.type();
        return kernels::visit_float(t, name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          return kernels::unary_map<T, T>(x, t, pool, [f](T v) { return static_cast<T>(f(v)); });
        });
      },
      x);
}

// f(v) for every numeric element type; float16/bfloat16 are computed in float.
template <typename F>
Tensor numeric_map(const Tensor& x, util::ThreadPool& pool, const char* name, F f) {
  return kernels::through_float(
      [&](const Tensor& x) {
        const ElemType t = x.type();
        return kernels::visit_numeric(t, name, [&](auto tag) {
          using T = typename decltype(tag)::type;
          return kernels::unary_map<T, T>(x, t, pool, [f](T v) { return static_cast<T>(f(v)); });
        });
      },
      x);
}

}  // namespace bough::ops
