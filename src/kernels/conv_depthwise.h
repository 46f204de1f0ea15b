// Float 2-D depthwise convolution (one input channel per group: group == C, any number of
// output channels per group), as mobile image networks (MobileNet, PP-LCNet) use at 3x3 and
// 5x5, stride 1 and 2, on a few dozen channels. Each input plane is zero-padded once into a
// thread's scratch, its columns split by phase for a stride above 1 (stride 2: even
// columns, then odd ones), so that every tap of an output row block is one contiguous
// vector load; the weights of all taps are held in registers as broadcasts, and two vectors
// of an output row (16 outputs with AVX2, 32 with AVX-512) are summed at a time. The bias is
// the sums' starting value and the activation is applied to each row while it is in cache.
//
// The padded plane holds the padding's zeros and every tap is summed, as the definition
// does: a NaN or infinite weight multiplies the zeros into NaN, and a NaN or infinity in
// the image reaches exactly the outputs whose window holds it. So the path needs no check
// of its operands' finiteness (the generic per-group loop skipped the padding's taps).
#pragma once

#include <cstdint>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// 2-D, one input channel per group (groups == C, so M is a multiple of C).
bool conv_depthwise_pays(const Window& win, int64_t C, int64_t groups);

// y (M x P) = depthwise convolution of x (C x win.in) with w (M x 1 x KH x KW: W's own
// layout), plus bias[m] (bias may be null), then `epilogue`'s activation. Output channel m
// reads input channel m / (M / C). Needs conv_depthwise_pays. Parallel over input channels.
void conv_depthwise_f32(const float* x, const float* w, float* y, const Window& win, int64_t C,
                        int64_t M, const float* bias, const ConvEpilogue& epilogue,
                        util::ThreadPool& pool);

}  // namespace bough::kernels
