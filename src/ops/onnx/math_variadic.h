// Variadic elementwise operators (Max, Min, Sum, Mean): a left fold over the inputs with
// multidirectional broadcasting. float16/bfloat16 inputs are folded in float.
#pragma once

#include "kernels/through_float.h"
#include "ops/onnx/math_map.h"

namespace bough::ops {

// Fn is called per element pair, as in arith<Fn>; `visit` picks the supported types.
template <typename Fn, typename Visit>
Tensor fold_inputs(KernelIO& io, const char* name, Visit visit) {
  const Tensor& first = io.input(0);
  const ElemType t = first.type();
  for (size_t i = 1; i < io.num_inputs(); ++i)
    if (io.input(i).type() != t) type_mismatch(first, io.input(i));
  if (io.num_inputs() == 1) {  // returned as is, once its type is known to be supported
    visit(kernels::is_narrow_float(t) ? ElemType::Float : t, name, [](auto) { return 0; });
    return first;
  }
  Tensor acc = kernels::widen(first);
  for (size_t i = 1; i < io.num_inputs(); ++i) {
    const Tensor next = kernels::widen(io.input(i));
    acc = visit(acc.type(), name, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return kernels::binary_map<T, T, T>(acc, next, acc.type(), io.pool(),
                                          [](T a, T b) { return static_cast<T>(Fn{}(a, b)); });
    });
  }
  return kernels::narrow_to(acc, t);
}

template <typename Fn>
Tensor fold_numeric(KernelIO& io, const char* name) {
  return fold_inputs<Fn>(io, name, [](ElemType t, const char* what, auto&& fn) {
    return kernels::visit_numeric(t, what, fn);
  });
}

template <typename Fn>
Tensor fold_float(KernelIO& io, const char* name) {
  return fold_inputs<Fn>(io, name, [](ElemType t, const char* what, auto&& fn) {
    return kernels::visit_float(t, what, fn);
  });
}

struct SumFn {
  template <typename T>
  auto operator()(T a, T b) const {
    return a + b;
  }
};

// Max and Min propagate NaN, as numpy's maximum and minimum do.
struct MaxFn {
  template <typename T>
  T operator()(T a, T b) const {
    return (a > b || a != a) ? a : b;
  }
};
struct MinFn {
  template <typename T>
  T operator()(T a, T b) const {
    return (a < b || a != a) ? a : b;
  }
};

template <Tensor (*Compute)(KernelIO&)>
class VariadicKernel : public Kernel {
 public:
  void run(KernelIO& io) override { io.set_output(0, Compute(io)); }
};

template <Tensor (*Compute)(KernelIO&)>
std::unique_ptr<Kernel> make_variadic(const BuildContext&) {
  return std::make_unique<VariadicKernel<Compute>>();
}

}  // namespace bough::ops
