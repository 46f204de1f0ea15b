// Building blocks shared by the elementwise operators: each operator file supplies a
// small functor and picks one of these kernels.
#pragma once

#include <cmath>

#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise.h"
#include "ops/registry.h"

namespace bough::ops {

// Opset < 7 broadcasting: with broadcast=1, B is matched against A starting at `axis`
// (or at the right when axis is absent). Returns B reshaped for numpy rules.
struct LegacyBroadcast {
  bool enabled = false;
  int64_t axis = -1;  // -1: align at the right
  static LegacyBroadcast from(const BuildContext& ctx) {
    LegacyBroadcast lb;
    if (ctx.since < 7 && ctx.attr_int("broadcast", 0) != 0) {
      lb.enabled = true;
      lb.axis = ctx.has_attr("axis") ? ctx.attr_int("axis", 0) : -1;
    }
    return lb;
  }
  Tensor apply(const Tensor& a, const Tensor& b) const {
    if (!enabled || axis < 0) return b;
    int64_t ax = axis < 0 ? axis + static_cast<int64_t>(a.rank()) : axis;
    Dims shape = b.shape();
    while (static_cast<int64_t>(shape.size()) + ax < static_cast<int64_t>(a.rank())) shape.push_back(1);
    return b.reshaped(shape);
  }
};

[[noreturn]] inline void type_mismatch(const Tensor& a, const Tensor& b) {
  fail(ErrorKind::BadInput, "",
       "inputs have different element types " + std::string(elem_name(a.type())) + " and " +
           std::string(elem_name(b.type())));
}

// Binary operator whose result has the inputs' type: Fn is called per element pair.
// float16/bfloat16 are computed in float.
template <typename Fn>
Tensor arith(const Tensor& a, const Tensor& b, exec::ThreadPool& pool, const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  const ElemType t = a.type();
  if (t == ElemType::Float16 || t == ElemType::BFloat16) {
    Tensor r = kernels::binary_map<float, float, float>(kernels::to_float(a), kernels::to_float(b),
                                                       ElemType::Float, pool, Fn{});
    return kernels::cast(r, t);
  }
  return kernels::visit_numeric(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::binary_map<T, T, T>(a, b, t, pool, [](T x, T y) { return static_cast<T>(Fn{}(x, y)); });
  });
}

// Binary operator with a bool result (comparisons).
template <typename Fn>
Tensor compare(const Tensor& a, const Tensor& b, exec::ThreadPool& pool, const char* name) {
  if (a.type() != b.type()) type_mismatch(a, b);
  const ElemType t = a.type();
  if (t == ElemType::Float16 || t == ElemType::BFloat16)
    return kernels::binary_map<float, float, bool>(kernels::to_float(a), kernels::to_float(b),
                                                   ElemType::Bool, pool, Fn{});
  if (t == ElemType::String)
    return kernels::binary_map<std::string, std::string, bool>(a, b, ElemType::Bool, pool, Fn{});
  return kernels::visit_numeric_bool(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::binary_map<T, T, bool>(a, b, ElemType::Bool, pool, Fn{});
  });
}

// A kernel for a binary operator: Compute(a, b, pool) -> Tensor.
template <Tensor (*Compute)(const Tensor&, const Tensor&, exec::ThreadPool&)>
class BinaryKernel : public exec::Kernel {
 public:
  explicit BinaryKernel(LegacyBroadcast legacy) : legacy_(legacy) {}
  void run(exec::KernelIO& io) override {
    const Tensor& a = io.input(0);
    if (legacy_.enabled) return io.set_output(0, Compute(a, legacy_.apply(a, io.input(1)), io.pool()));
    io.set_output(0, Compute(a, io.input(1), io.pool()));
  }

 private:
  LegacyBroadcast legacy_;
};

template <Tensor (*Compute)(const Tensor&, const Tensor&, exec::ThreadPool&)>
std::unique_ptr<exec::Kernel> make_binary(const BuildContext& ctx) {
  return std::make_unique<BinaryKernel<Compute>>(LegacyBroadcast::from(ctx));
}

// Unary operator on float types (float16/bfloat16 through float).
template <typename Fn>
Tensor float_unary(const Tensor& x, exec::ThreadPool& pool, const char* name) {
  const ElemType t = x.type();
  if (t == ElemType::Float16 || t == ElemType::BFloat16)
    return kernels::cast(kernels::unary_map<float, float>(kernels::to_float(x), ElemType::Float, pool, Fn{}), t);
  return kernels::visit_float(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::unary_map<T, T>(x, t, pool, [](T v) { return static_cast<T>(Fn{}(v)); });
  });
}

// Unary operator on any numeric type.
template <typename Fn>
Tensor numeric_unary(const Tensor& x, exec::ThreadPool& pool, const char* name) {
  const ElemType t = x.type();
  if (t == ElemType::Float16 || t == ElemType::BFloat16)
    return kernels::cast(kernels::unary_map<float, float>(kernels::to_float(x), ElemType::Float, pool, Fn{}), t);
  return kernels::visit_numeric(t, name, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::unary_map<T, T>(x, t, pool, [](T v) { return static_cast<T>(Fn{}(v)); });
  });
}

template <Tensor (*Compute)(const Tensor&, exec::ThreadPool&)>
class UnaryKernel : public exec::Kernel {
 public:
  void run(exec::KernelIO& io) override { io.set_output(0, Compute(io.input(0), io.pool())); }
};

template <Tensor (*Compute)(const Tensor&, exec::ThreadPool&)>
std::unique_ptr<exec::Kernel> make_unary(const BuildContext&) {
  return std::make_unique<UnaryKernel<Compute>>();
}

}  // namespace bough::ops
