// Column matrices for deformable convolutions (DeformConv): as im2col (conv_im2col.h), but
// each kernel tap of each output position reads the image at its regular place moved by a
// learned offset, interpolated (bilinearly in 2-D, multilinearly in N-D) between the pixels
// around it, pixels outside the image counting as 0, and scaled by an optional mask.
#pragma once

#include <cstdint>

#include "kernels/conv_window.h"
#include "util/thread_pool.h"

namespace bough::kernels {

// Where the samples of one image come from. The channels fall into `offset_groups` equal
// runs, each with its own offsets and mask. `offset` holds, for each offset group, kernel
// tap and spatial dimension, one value per output position: [groups][K][rank][P] with
// K = w.kernel_numel() and P = w.out_numel(). `mask` is [groups][K][P], or null for all 1.
template <typename T>
struct Deformation {
  const T* offset;
  const T* mask;
  int64_t offset_groups;
};

// For `channels` images of size w.in (back to back in `image`), writes the column matrix
// restricted to output positions [p0, p1): row (c * K + k) holds, for each position p, the
// image sampled under kernel tap k moved by its offset, times its mask. Rows are split across
// `pool`. Defined for float and double.
template <typename T>
void deform_im2col(const T* image, int64_t channels, const Window& w, const Deformation<T>& d,
                   int64_t p0, int64_t p1, T* col, util::ThreadPool& pool);

}  // namespace bough::kernels
