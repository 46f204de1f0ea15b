// What a convolution does to each output value after the sum: add its channel's bias, then
// apply an activation (a Relu, LeakyRelu, Sigmoid or Clip fused into the Conv). Applied to
// an output tile right after its matrix product, while the tile is still in cache, instead
// of in passes of their own over the whole output.
#pragma once

#include <algorithm>
#include <cstdint>

#include "kernels/fast_math.h"

namespace bough::kernels {

enum class Activation { None, Relu, LeakyRelu, Sigmoid, Clip };

// The activation part; the bias comes per channel with each call.
struct ConvEpilogue {
  Activation activation = Activation::None;
  float alpha = 0;  // LeakyRelu's slope; Clip's lower bound
  float beta = 0;   // Clip's upper bound

  // The n values at y, of an output channel whose bias is b: y + b, activated.
  template <typename T>
  void apply(T* y, int64_t n, T b) const {
    const T lo = static_cast<T>(alpha), hi = static_cast<T>(beta);
    switch (activation) {
      case Activation::None:
        for (int64_t j = 0; j < n; ++j) y[j] += b;
        return;
      case Activation::Relu:
        for (int64_t j = 0; j < n; ++j) y[j] = std::max(y[j] + b, T(0));
        return;
      case Activation::LeakyRelu:
        for (int64_t j = 0; j < n; ++j) {
          const T v = y[j] + b;
          y[j] = v < 0 ? lo * v : v;
        }
        return;
      case Activation::Sigmoid:
        for (int64_t j = 0; j < n; ++j) y[j] = fast_sigmoid(y[j] + b);
        return;
      case Activation::Clip:
        for (int64_t j = 0; j < n; ++j) y[j] = std::min(std::max(y[j] + b, lo), hi);
        return;
    }
  }
};

}  // namespace bough::kernels
