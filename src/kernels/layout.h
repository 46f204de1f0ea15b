// Moving elements between layouts: transpose, and one index along an axis.
#pragma once

#include <cstdint>
#include <span>

#include "bough/tensor.h"

namespace bough::kernels {

// out.shape[i] = x.shape[perm[i]].
Tensor transpose(const Tensor& x, std::span<const int64_t> perm);
// Moves axis `from` to position `to`, keeping the others in order.
Tensor move_axis(const Tensor& x, int64_t from, int64_t to);
// x with `axis` removed, at `index` along it: a view when axis is 0, a copy otherwise.
Tensor select(const Tensor& x, int64_t axis, int64_t index);
// Reverses the order along axis 0.
Tensor reverse_leading(const Tensor& x);
// Normalizes a possibly negative axis for a tensor of `rank`; throws Error(BadInput).
int64_t normalize_axis(int64_t axis, int64_t rank);

}  // namespace bough::kernels
