// Float convolution of one image as GEMMs over tiles of output positions: each thread takes
// a tile, writes its column matrix in the GEMM's packed layout (2-D windows: im2col straight
// into it; else im2col, or the image itself for a pointwise 1x1 conv, then packed),
// multiplies the filter by it straight into the output and applies the epilogue
// (bias, fused activation) while the tile is in cache. Sized so that a tile's columns stay
// in L2: unlike im2col of the whole image followed by one big product, no pass of the
// convolution goes out to memory.
#pragma once

#include <cstdint>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// y (M x P) = convolution of x (C x w.in) with w (M x C/groups*K, row-major: W's own
// layout), plus bias[m] on output channel m (bias may be null), then the activation of
// `epilogue`. Groups must have more than one output channel
// each or be a single group (depthwise convolutions are computed directly elsewhere).
void conv_tiles_f32(const float* x, const float* w, float* y, const Window& win, int64_t C,
                    int64_t M, int64_t groups, const float* bias, const ConvEpilogue& epilogue,
                    util::ThreadPool& pool);

}  // namespace bough::kernels
