// Column matrices for convolutions: im2col unrolls the windows of an image into a matrix
// that a plain matrix product turns into a convolution; col2im adds such a matrix back into
// an image (ConvTranspose, Col2Im).
#pragma once

#include <cstdint>

#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// For `channels` images of size w.in (back to back in `image`), writes the column matrix
// restricted to output positions [p0, p1): row (c * K + k) holds, for each position p, the
// image value under kernel tap k (0 in the padding), K = w.kernel_numel(). `col` has
// channels * K rows of p1 - p0 elements, split across `pool` (or written by the calling
// thread without it). Defined for float and double.
template <typename T>
void im2col(const T* image, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* col,
            util::ThreadPool& pool);
template <typename T>
void im2col(const T* image, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* col);

// The adjoint: for `channels` images of size w.in, adds each element of the column matrix
// restricted to output positions [p0, p1) (channels * K rows of p1 - p0 elements) into the
// image position it was read from; taps in the padding are dropped. `image` must be
// initialized. Channels are split across `pool`. Defined for float and double.
template <typename T>
void col2im_add(const T* col, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* image,
                util::ThreadPool& pool);

// Whether the windows tile the image exactly: every image element under exactly one tap of
// one position (stride == kernel, no dilation, no padding, an image of out * stride), as a
// 2x2 stride-2 ConvTranspose upsamples.
bool window_tiles_image(const Window& w);

// col2im_add for windows that tile the image (window_tiles_image): each image element is
// written once, its column-matrix element plus bias[channel] (bias may be null), so `image`
// needs no initialization and no pass of its own for the bias.
template <typename T>
void col2im_tiled(const T* col, int64_t channels, const Window& w, int64_t p0, int64_t p1,
                  const T* bias, T* image, util::ThreadPool& pool);

}  // namespace bough::kernels
