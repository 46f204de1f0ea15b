// Reading the integer arguments of shape operators (shapes, axes, starts, pads, ...) from
// tensors, and checking axis lists.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bough/tensor.h"

namespace bough::kernels {

// The elements of an integer tensor (int8..int64, uint8..uint64) as int64; `what` names the
// argument in errors. Any rank: shape operators take 1-D lists, or scalars.
std::vector<int64_t> read_ints(const Tensor& t, const char* what);
// The single element of a scalar or 1-element integer tensor.
int64_t read_int(const Tensor& t, const char* what);
// read_ints, but also from a float tensor holding whole numbers: Split-1's `split` and
// Tile-1's `tiles` and `axis` are tensors of the input's (float) type.
std::vector<int64_t> read_whole_numbers(const Tensor& t, const char* what);
// A shape argument: a 1-D integer list (int64 per the spec; int32 is accepted too).
std::vector<int64_t> read_shape_arg(const Tensor& t, const char* what);

// Normalizes each axis against `rank`; throws Error(BadInput) on out-of-range or repeated
// axes.
std::vector<int64_t> normalize_axes(std::span<const int64_t> axes, int64_t rank);

// Row-major strides, in elements, of a tensor of shape `dims`.
std::vector<int64_t> contiguous_strides(std::span<const int64_t> dims);

}  // namespace bough::kernels
