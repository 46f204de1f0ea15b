// What a convolution does to each output value after the sum: add its channel's bias, then
// apply an activation (a Relu, LeakyRelu, Sigmoid, Clip, HardSigmoid or HardSwish fused into
// the Conv), then optionally multiply by one constant and add another (the scalar Mul and
// Add after an activation: PaddleOCR's learnable affine). Applied to an output tile right after its
// matrix product, while the tile is still in cache, instead of in passes of their own over the
// whole output.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/fast_math.h"

namespace bough::kernels {

// HardSwish is the operator's x * max(0, min(1, x / 6 + 0.5)); ClipHardSwish is the same
// function as exporters write it before opset 14, x * Clip(x + 3, 0, 6) / 6, computed in that
// order so that it rounds as those four nodes do.
enum class Activation {
  None,
  Relu,
  LeakyRelu,
  Sigmoid,
  Clip,
  HardSigmoid,
  HardSwish,
  ClipHardSwish
};

// The activation part; the bias comes per channel with each call.
struct ConvEpilogue {
  Activation activation = Activation::None;
  float alpha = 0;  // LeakyRelu's slope; Clip's lower bound; HardSigmoid's alpha
  float beta = 0;   // Clip's upper bound; HardSigmoid's beta
  // After the activation, v * scale, then + shift, each rounded as the Mul and Add nodes it
  // replaces: a missing Mul is a scale of 1 and a missing Add a shift of -0 (v + -0 is v, -0
  // included, where v + 0 would turn -0 into 0).
  bool affine = false;
  float scale = 1;
  float shift = -0.0f;

  // The n values at y, of an output channel whose bias is b: y + b, activated.
  template <typename T>
  void apply(T* y, int64_t n, T b) const;

  // Whether the direct and Winograd kernels activate in registers (Relu, LeakyRelu, Clip,
  // or none); they apply the others (Sigmoid, HardSigmoid, the HardSwishes) with activate
  // over each output row right after it is stored, while it is in cache.
  bool in_registers() const {
    return !affine && (activation == Activation::None || activation == Activation::Relu ||
                       activation == Activation::LeakyRelu || activation == Activation::Clip);
  }
  // The activation those kernels apply in registers: None when they leave it to activate.
  Activation register_activation() const { return in_registers() ? activation : Activation::None; }

  // The n values at y activated, with no bias (not even a zero one: -0 stays -0).
  template <typename T>
  void activate(T* y, int64_t n) const;

  // The affine part over the n values at y, when there is one: in two loops, so that each
  // product is rounded to a float in memory before its sum (in one loop the compiler may
  // fuse them into one multiply-add, which rounds once: 1 ulp off the two nodes).
  template <typename T>
  [[gnu::always_inline]] void apply_affine(T* y, int64_t n) const {
    if (!affine) return;
    const T s = static_cast<T>(scale), t = static_cast<T>(shift);
    for (int64_t j = 0; j < n; ++j) y[j] = y[j] * s;
    for (int64_t j = 0; j < n; ++j) y[j] = y[j] + t;
  }

  // y[j] = activation(in(y[j])), the switch outside the loop. Always inlined, so that the
  // copy of each vector target (kernels/conv_epilogue.cc) vectorizes it for that target.
  template <typename T, typename In>
  [[gnu::always_inline]] void each(T* y, int64_t n, In in) const {
    const T lo = static_cast<T>(alpha), hi = static_cast<T>(beta);
    switch (activation) {
      case Activation::None:
        for (int64_t j = 0; j < n; ++j) y[j] = in(y[j]);
        return;
      case Activation::Relu:
        for (int64_t j = 0; j < n; ++j) y[j] = std::max(in(y[j]), T(0));
        return;
      case Activation::LeakyRelu:
        for (int64_t j = 0; j < n; ++j) {
          const T v = in(y[j]);
          y[j] = v < 0 ? lo * v : v;
        }
        return;
      case Activation::Sigmoid:
        for (int64_t j = 0; j < n; ++j) y[j] = fast_sigmoid(in(y[j]));
        return;
      case Activation::Clip:
        for (int64_t j = 0; j < n; ++j) y[j] = std::min(std::max(in(y[j]), lo), hi);
        return;
      case Activation::HardSigmoid:
        for (int64_t j = 0; j < n; ++j) y[j] = clamp(lo * in(y[j]) + hi, T(0), T(1));
        return;
      case Activation::HardSwish:
        for (int64_t j = 0; j < n; ++j) {
          const T v = in(y[j]);
          y[j] = v * clamp(v / T(6) + T(0.5), T(0), T(1));
        }
        return;
      case Activation::ClipHardSwish:
        for (int64_t j = 0; j < n; ++j) {
          const T v = in(y[j]);
          y[j] = v * clamp(v + T(3), T(0), T(6)) / T(6);
        }
        return;
    }
  }

 private:
  // Clip as the operator computes it: NaN stays NaN.
  template <typename T>
  [[gnu::always_inline]] static T clamp(T v, T lo, T hi) {
    const T r = v < lo ? lo : v;
    return r > hi ? hi : r;
  }
};

// ConvEpilogue::apply and activate on floats (bias: null for activate), compiled once per
// vector target and picked at run time. Most of their callers are compiled for the x86-64-v3
// baseline, whose 8-float vectors took about twice AVX-512's time on a HardSwish (its
// division dominates): a 16 -> 32 channel 1x1 conv with HardSwish on 24 x 480 (a
// recognizer's) took 0.86 of its time once the epilogue was dispatched (docs/bench/cnn.md).
void epilogue_f32(const ConvEpilogue& epilogue, float* y, int64_t n, const float* bias);

template <typename T>
void ConvEpilogue::apply(T* y, int64_t n, T b) const {
  if constexpr (std::is_same_v<T, float>) {
    epilogue_f32(*this, y, n, &b);
  } else {
    each(y, n, [b](T v) { return v + b; });
    apply_affine(y, n);
  }
}

template <typename T>
void ConvEpilogue::activate(T* y, int64_t n) const {
  if constexpr (std::is_same_v<T, float>) {
    epilogue_f32(*this, y, n, nullptr);
  } else {
    each(y, n, [](T v) { return v; });
    apply_affine(y, n);
  }
}

}  // namespace bough::kernels
