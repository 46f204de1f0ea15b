// The kernel of a pooling operator computed in float or double (AveragePool, LpPool): its
// window attributes, read once at build time, and what it computes over each window.
#pragma once

#include <memory>
#include <utility>

#include "kernels/pool_window.h"
#include "ops/registry.h"

namespace bough::ops {

// Fill: fill(tag, x, y, w, threads) fills Y from X, both in the compute type `tag` names, over
// window w (see kernels::window_pool_float).
template <typename Fill>
class FloatPool : public Kernel {
 public:
  FloatPool(kernels::WindowAttrs attrs, const char* name, Fill fill)
      : attrs_(std::move(attrs)), name_(name), fill_(std::move(fill)) {}

  void run(KernelIO& io) override {
    io.set_output(0, kernels::window_pool_float(
                         io.input(0), attrs_, name_,
                         [&](auto tag, const Tensor& x, Tensor& y, const kernels::Window& w) {
                           fill_(tag, x, y, w, io.pool());
                         }));
  }

 private:
  kernels::WindowAttrs attrs_;
  const char* name_;
  Fill fill_;
};

template <typename Fill>
std::unique_ptr<Kernel> make_float_pool(kernels::WindowAttrs attrs, const char* name, Fill fill) {
  return std::make_unique<FloatPool<Fill>>(std::move(attrs), name, std::move(fill));
}

}  // namespace bough::ops
