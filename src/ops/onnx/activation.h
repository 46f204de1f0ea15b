// Kernels for elementwise activations whose function captures attributes: the factory
// reads the attributes once and hands a lambda to make_float_map / make_numeric_map.
#pragma once

#include <memory>

#include "ops/onnx/math_map.h"

namespace bough::ops {

// y = f(x) for float types (float16/bfloat16 through float); f is called with float or double.
template <typename F>
class FloatMapKernel : public Kernel {
 public:
  FloatMapKernel(const char* name, F f) : name_(name), f_(f) {}
  void run(KernelIO& io) override {
    io.set_output(0, float_map(io.input(0), io.pool(), name_, f_));
  }

 private:
  const char* name_;
  F f_;
};

// y = f(x) for every numeric type (float16/bfloat16 through float).
template <typename F>
class NumericMapKernel : public Kernel {
 public:
  NumericMapKernel(const char* name, F f) : name_(name), f_(f) {}
  void run(KernelIO& io) override {
    io.set_output(0, numeric_map(io.input(0), io.pool(), name_, f_));
  }

 private:
  const char* name_;
  F f_;
};

template <typename F>
std::unique_ptr<Kernel> make_float_map(const char* name, F f) {
  return std::make_unique<FloatMapKernel<F>>(name, f);
}

template <typename F>
std::unique_ptr<Kernel> make_numeric_map(const char* name, F f) {
  return std::make_unique<NumericMapKernel<F>>(name, f);
}

}  // namespace bough::ops
