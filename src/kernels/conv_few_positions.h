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

// Output positions up to which the transposed form pays (measured on the STFT Conv of
// bench's vad_lstm, docs/bench/conv.md), for a single group of at least this many filters.
inline constexpr int64_t kFewPositionsMax = 16;
inline constexpr int64_t kFewPositionsMinFilters = 16;

inline bool conv_few_positions_pays(int64_t positions, int64_t filters, int64_t groups) {
  return groups == 1 && positions <= kFewPositionsMax && filters >= kFewPositionsMinFilters;
}

// Wᵀ packed from W (M x C*K row-major: W's own layout), for conv_few_positions_f32.
PackedB pack_filter_transposed(const float* w, int64_t M, int64_t CK);

// y (M x P) = convolution of x (C x win.in) with the filter packed by
// pack_filter_transposed, plus bias[m] (bias may be null), then `epilogue`'s activation.
void conv_few_positions_f32(const float* x, const PackedB& wt, float* y, const Window& win,
                            int64_t C, const float* bias, const ConvEpilogue& epilogue,
                            util::ThreadPool& pool);

}  // namespace bough::kernels
