// Kernels for elementwise activations whose function captures attributes: the factory
// reads the attributes once and hands a lambda to make_float_map / make_numeric_map.
#pragma once

#include <memory>

#include "ops/onnx/math_map.h"

namespace bough::ops {

// y = f(x) for the element types K names (float16/bfloat16 through float); f is called with
// the element type (float or double for float types).
template <kernels::Types K, typename F>
class MapKernel : public Kernel {
 public:
  MapKernel(const char* name, F f) : name_(name), f_(f) {}
  void run(KernelIO& io) override {
    io.set_output(0, map_values<K>(io.input(0), io.pool(), name_, f_));
  }

 private:
  const char* name_;
  F f_;
};

template <typename F>
std::unique_ptr<Kernel> make_float_map(const char* name, F f) {
  return std::make_unique<MapKernel<kernels::Types::Float, F>>(name, f);
}

template <typename F>
std::unique_ptr<Kernel> make_numeric_map(const char* name, F f) {
  return std::make_unique<MapKernel<kernels::Types::Numeric, F>>(name, f);
}

}  // namespace bough::ops
