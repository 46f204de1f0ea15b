// Float 3x3 stride-1 2-D convolution by Winograd's minimal filtering F(2x2, 3x3): each 2x2
// block of outputs of a channel pair costs 16 multiplies instead of 36. The image is cut
// into 4x4 tiles (overlapping by 2) and transformed (V = Bᵀ d B), the filter likewise once
// per session (U = G g Gᵀ); each of the 16 transformed positions is then one matrix product
// over the input channels (the direct path's inner loops, kernels/conv_direct.h), and each
// tile's 4x4 products are transformed back into its 2x2 outputs (Aᵀ m A), where the bias
// and the activation are applied. 2.25x fewer multiply-adds than the direct path, for a
// few more rounding steps (the transforms only add and halve).
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/conv_epilogue.h"
#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Input channels from which the transforms pay for the saved multiply-adds (measured,
// docs/bench/conv.md).
inline constexpr int64_t kWinogradMinChannels = 16;

// 2-D, 3x3, stride 1, dilation 1, one group, at least kWinogradMinChannels input channels.
bool conv_winograd_pays(const Window& win, int64_t C, int64_t groups);

// The output channels per block of winograd_filter on an output of `out` (its two sizes):
// the direct path's for its products' rows (one position per 2x2 tile).
int64_t winograd_block(const std::vector<int64_t>& out);

// W (M x C x 3 x 3) transformed for conv_winograd_f32 on an output of `out`: 16 matrices
// of M x C, each blocked as winograd_block(out) says for the direct path's product.
std::vector<float> winograd_filter(const float* w, int64_t M, int64_t C,
                                   const std::vector<int64_t>& out);

// y (M x P) = convolution of x (C x win.in) with W given as winograd_filter, plus bias[m]
// (bias may be null), then `epilogue`'s activation. Needs conv_winograd_pays.
void conv_winograd_f32(const float* x, const float* filter, float* y, const Window& win, int64_t C,
                       int64_t M, const float* bias, const ConvEpilogue& epilogue,
                       util::ThreadPool& pool);

}  // namespace bough::kernels
