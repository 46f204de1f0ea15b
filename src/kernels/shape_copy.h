// One strided walk that moves elements between layouts: the body of Slice, Expand, Tile,
// Concat, Split and Pad.
#pragma once

#include <cstdint>
#include <span>

#include "bough/tensor.h"

namespace bough::util {
class ThreadPool;
}

namespace bough::kernels {

// Where a walk reads or writes: the element offset of coordinate 0 and, per dimension of
// the walk, the step in elements (0 repeats an element, negative walks backwards).
struct StridedView {
  int64_t base = 0;
  std::span<const int64_t> strides;
};

// For every coordinate c in `dims`: dst[dst.base + sum c_i*dst.strides_i] =
// src[src.base + sum c_i*src.strides_i]. Same element type, any type (sub-byte types field by
// field on one thread). The caller keeps the offsets in range. Splits the outer dimensions
// across `pool` when given and the walk is large.
void strided_copy(const Tensor& src, StridedView from, Tensor& dst, StridedView to,
                  std::span<const int64_t> dims, util::ThreadPool* pool = nullptr);

}  // namespace bough::kernels
