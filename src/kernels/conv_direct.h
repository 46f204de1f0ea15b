// Float 2-D convolution with up to a few hundred input taps per output (an image network's
// 3x3 layers up to 64 channels; its first layer: 3 channels x 3x3 = 27), computed directly
// from a zero-padded copy of the image: blocks of output channels by one or two vectors of
// an output row in registers, each tap one load of the image row and a multiply-add per
// channel. No column matrix at all (im2col + GEMM wrote and read one of taps x positions
// floats per tile).
#pragma once

#include <cstdint>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Input taps per output (C * kernel size) up to which the direct form pays (measured,
// docs/bench/conv.md: 20-35 % less time than the tiles at 27-576 taps, the same at 1152
// and 2304).
inline constexpr int64_t kDirectMaxTaps = 576;

// 2-D, stride 1, one group, at most kDirectMaxTaps taps, not pointwise (a 1x1 conv reads
// the image itself as the GEMM's operand, with nothing to save).
bool conv_direct_pays(const Window& win, int64_t C, int64_t groups);

// y (M x P) = convolution of x (C x win.in) with w (M x C*K row-major: W's own layout), plus
// bias[m] (bias may be null), then `epilogue`'s activation. Needs conv_direct_pays.
void conv_direct_f32(const float* x, const float* w, float* y, const Window& win, int64_t C,
                     int64_t M, const float* bias, const ConvEpilogue& epilogue,
                     util::ThreadPool& pool);

}  // namespace bough::kernels
