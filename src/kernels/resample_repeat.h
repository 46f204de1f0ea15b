// Nearest resampling by whole repeats: where Resize / Upsample in nearest mode map output o of
// the last axis (and of the one before) to input o / r for an integer r, as an x2 or x4
// upsampling does in most coordinate modes, each source row is written out once with every
// element repeated r times and then copied to its other output rows, instead of gathering
// every element through a per-axis index table. Whether the shortcut applies is decided from
// the general path's own taps (make_resample_axis), so the result is the same by construction.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "bough/tensor.h"
#include "kernels/conv_resample.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// x resampled as resample() does, when the shortcut applies: nearest mode, an element type
// of whole bytes (not strings), the axes before the last two unchanged, and the last two
// (either may also be unchanged) each mapping output o to input o / r with one tap of
// weight 1. Nothing otherwise.
std::optional<Tensor> resample_by_repeats(const Tensor& x, const ResampleSpec& spec,
                                          std::span<const int64_t> out,
                                          std::span<const double> scales,
                                          std::span<const double> roi, util::ThreadPool& pool);

// resample_by_repeats when it applies, else resample().
Tensor resample_with_shortcuts(const Tensor& x, const ResampleSpec& spec,
                               std::span<const int64_t> out, std::span<const double> scales,
                               std::span<const double> roi, double extrapolation,
                               util::ThreadPool& pool);

}  // namespace bough::kernels
