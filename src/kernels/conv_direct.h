// Float 2-D convolution with up to a few hundred input taps per output (an image network's
// 3x3 layers up to 64 channels; its first layer: 3 channels x 3x3 = 27), computed directly
// from a zero-padded copy of the image: blocks of output channels by one or two vectors of
// an output row in registers, each tap one load of the image row and a multiply-add per
// channel. No column matrix at all (im2col + GEMM wrote and read one of taps x positions
// floats per tile).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Input taps per output (C * kernel size) up to which the direct form pays (measured,
// docs/bench/conv.md: 20-35 % less time than the tiles at 27-576 taps, the same at 1152
// and 2304).
inline constexpr int64_t kDirectMaxTaps = 576;

// 2-D, one group, at most kDirectMaxTaps taps, strides of 1 or 2, not pointwise (a 1x1 conv
// reads the image itself as the GEMM's operand, with nothing to save), and no stride 2 along
// a kernel dimension of 1 (half of each padded row would be copied and never read).
bool conv_direct_pays(const Window& win, int64_t C, int64_t groups);

// The output channels per block of conv_direct_f32 for output rows of `OW` positions.
int64_t conv_direct_block(int64_t OW);

// W (M x taps row-major: W's own layout) as conv_direct_f32 reads it: by blocks of `block`
// output channels, tap-major within a block (a tap's weights for the block's channels side
// by side), the last block zero-padded. Built once per session for a constant W.
std::vector<float> block_filter(const float* w, int64_t M, int64_t taps, int64_t block);

// Rows [first_row, first_row + rows) of the zero-padded image: C planes of x (IH x IW
// each) placed at row `top` and column `left` of planes `width` wide, into `out` (C planes of
// rows x width), writing each element once. Needs left + IW <= width.
void pad_planes(const float* x, int64_t C, int64_t IH, int64_t IW, int64_t top, int64_t left,
                int64_t first_row, int64_t rows, int64_t width, float* out);

// The zero-padded plane of x (IH x IW, its first row at padded row `top`, which may be
// negative to start inside the image, and its first column at `left`) in `rows` rows, each
// split by column phase for stride s: padded column c at dst[row * s * run + (c % s) * run +
// c / s], the rest of each run zeros (run >= the padded width / s, rounded up). Writes up to
// a vector past the last row. With `clear` false (stride 2 only), dst already holds the
// zeros: only the image's values are written.
void pad_plane_split(const float* x, int64_t IH, int64_t IW, int64_t top, int64_t left,
                     int64_t rows, int64_t s, int64_t run, bool clear, float* dst);

// y (M x P) = convolution of x (C x win.in) with W given as
// block_filter(w, M, C * K, conv_direct_block(win.out[1])), plus bias[m] (bias may be
// null), then `epilogue`'s activation. Needs conv_direct_pays.
void conv_direct_f32(const float* x, const float* blocked, float* y, const Window& win, int64_t C,
                     int64_t M, const float* bias, const ConvEpilogue& epilogue,
                     util::ThreadPool& pool);

// The direct path's inner loops as a matrix product: y (M x n, rows n apart) = W (M x k,
// given as block_filter(w, M, k, conv_direct_block(n))) times v (k rows of n, rows `ld`
// apart). Reads up to conv_direct_read(n) floats from each row's start: into the next row,
// and past the last row (the caller's slack). One thread.
void direct_product_f32(const float* v, int64_t ld, int64_t k, int64_t n, const float* blocked,
                        int64_t M, float* y);

// How far past a row's start direct_product_f32 reads on rows of n.
int64_t conv_direct_read(int64_t n);

}  // namespace bough::kernels
