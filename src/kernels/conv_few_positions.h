// Float convolution of one image with few output positions (an STFT as a Conv: 258 filters of
// 256 taps over 5 frames), computed transposed: yᵀ (P x M) = colsᵀ (P x C*K) · Wᵀ, with Wᵀ
// packed once per session as the GEMM's packed operand. The direct form (W · cols) would pack
// the column matrix on every call and run the GEMM on panels of 5 of 8 or 16 lanes.
#pragma once

#include <cstdint>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "kernels/gemm_f32.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Output positions up to which the transposed form pays, for a single group of at least
// kFewPositionsMinFilters filters: up to kFewPositionsMax on any path (measured on the STFT
// Conv of bench's vad_lstm, docs/bench/conv.md); up to kFewPositionsOverGemmMax in place of
// the tiles and pointwise paths, whose GEMM takes the positions as panels of 32 lanes, 20 or
// 24 of them used (SVTR's 3x3 over 1 x 20 positions: 0.74 of the tiles' time; 1 x 32 took
// 1.29, docs/bench/cnn.md).
inline constexpr int64_t kFewPositionsMax = 16;
inline constexpr int64_t kFewPositionsOverGemmMax = 24;
inline constexpr int64_t kFewPositionsMinFilters = 16;

// Whether a convolution of C channels on `win` with `filters` filters computes faster
// transposed.
bool conv_few_positions_pays(const Window& win, int64_t C, int64_t filters, int64_t groups);

// Wᵀ packed from W (M x C*K row-major: W's own layout), for conv_few_positions_f32.
PackedB pack_filter_transposed(const float* w, int64_t M, int64_t CK);

// y (M x P) = convolution of x (C x win.in) with the filter packed by
// pack_filter_transposed, plus bias[m] (bias may be null), then `epilogue`'s activation.
void conv_few_positions_f32(const float* x, const PackedB& wt, float* y, const Window& win,
                            int64_t C, const float* bias, const ConvEpilogue& epilogue,
                            util::ThreadPool& pool);

}  // namespace bough::kernels
