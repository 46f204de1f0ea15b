// Elementwise tests of float values with a bool result (IsNaN, IsInf): every float type,
// the narrow ones (float16, bfloat16, float8) seen through float.
#pragma once

#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

template <typename F>
Tensor float_test(const Tensor& in, util::ThreadPool& pool, const char* name, F f) {
  if (!is_float_type(in.type())) kernels::unsupported_type(in.type(), name);
  const bool wide = in.type() == ElemType::Float || in.type() == ElemType::Double;
  const Tensor x = wide ? in : kernels::to_float(in);
  return kernels::visit_float(x.type(), name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::unary_map<T, bool>(x, ElemType::Bool, pool, f);
  });
}

// A bool per element of the input.
inline void infer_float_test(InferContext& ctx) { infer_shape_of_first(ctx, ElemType::Bool); }

}  // namespace bough::ops
