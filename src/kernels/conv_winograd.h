// Float 3x3 stride-1 2-D convolution by Winograd's minimal filtering F(m x m, 3x3), m = 2
// or 4: each m x m block of outputs of a channel pair costs (m + 2)^2 multiplies instead of
// 9 m^2 (16 instead of 36, 36 instead of 144). The image is cut into (m + 2)^2 tiles
// (overlapping by 2) and transformed (V = Bᵀ d B), the filter likewise once per session
// (U = G g Gᵀ); each transformed position is then one matrix product over the input
// channels (the direct path's inner loops, kernels/conv_direct.h), and each tile's products
// are transformed back into its m x m outputs (Aᵀ m A), where the bias and the activation
// are applied. F(4x4, 3x3) (Lavin and Gray's points 0, ±1, ±2) does 1.8x fewer multiply-adds
// than F(2x2, 3x3), whose transforms only add and halve, for transforms that scale by up to
// 8 and so a few times its rounding error, still within a direct sum's bound
// (tests/kernels/conv_paths_test.cc).
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

// The output tile's side m for an output of `out` (its two sizes): the one whose products
// do fewer multiply-adds, counting the empty lanes of partly used vectors (4 from about
// 10x10 up, 2 on 8x8 and below: measured, docs/bench/conv.md).
int64_t winograd_tile(const std::vector<int64_t>& out);

// How the Winograd path cuts an output: its tile's side, and the output channels per block
// of its products (the direct path's for rows of one position per tile): with a given
// tile, or with winograd_tile's.
struct WinogradForm {
  int64_t tile;
  int64_t block;
  bool operator==(const WinogradForm&) const = default;
};
WinogradForm winograd_form(const std::vector<int64_t>& out, int64_t tile);
WinogradForm winograd_form(const std::vector<int64_t>& out);

// W (M x C x 3 x 3) transformed for `form`: (tile + 2)^2 matrices of M x C, each blocked
// for the direct path's product.
std::vector<float> winograd_filter(const float* w, int64_t M, int64_t C, const WinogradForm& form);

// y (M x P) = convolution of x (C x win.in) with W given as winograd_filter for `form`, a
// winograd_form of win.out, plus bias[m] (bias may be null), then `epilogue`'s activation.
// Needs conv_winograd_pays.
void conv_winograd_f32(const float* x, const float* filter, const WinogradForm& form, float* y,
                       const Window& win, int64_t C, int64_t M, const float* bias,
                       const ConvEpilogue& epilogue, util::ThreadPool& pool);

}  // namespace bough::kernels
