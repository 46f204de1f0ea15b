// Index tensors of the gathering operators (Gather, GatherElements, ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bough/error.h"
#include "kernels/shape_args.h"

namespace bough::kernels {

[[noreturn, gnu::cold]] inline void index_out_of_range(int64_t i, int64_t len) {
  fail(ErrorKind::BadInput, "",
       "index " + std::to_string(i) + " is out of range for an axis of " + std::to_string(len));
}

// Element k of an int32/int64 index tensor, checked against an axis of `len` entries
// (negative ones count from the back) and made non-negative.
inline int64_t checked_index(const Tensor& indices, int64_t k, int64_t len) {
  const int64_t i =
      indices.type() == ElemType::Int64 ? indices.data<int64_t>()[k] : indices.data<int32_t>()[k];
  if (i < -len || i >= len) [[unlikely]]
    index_out_of_range(i, len);
  return i < 0 ? i + len : i;
}

// All elements of an integer index tensor, checked as checked_index does; throws
// Error(BadInput) when one is out of range or the type is not int32/int64.
// Fills `out` (reusing its storage, so a kernel that keeps it allocates nothing per call).
inline void checked_indices(const Tensor& indices, int64_t len, std::vector<int64_t>* out) {
  if (indices.type() != ElemType::Int64 && indices.type() != ElemType::Int32)
    fail(ErrorKind::BadInput, "", "indices must be int32 or int64");
  const int64_t n = indices.numel();
  out->resize(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) (*out)[static_cast<size_t>(k)] = checked_index(indices, k, len);
}

inline std::vector<int64_t> checked_indices(const Tensor& indices, int64_t len) {
  std::vector<int64_t> idx;
  checked_indices(indices, len, &idx);
  return idx;
}

// The indices of GatherElements and ScatterElements along `axis` of data, checked as
// checked_indices does; throws Error(BadInput) unless `indices` has data's rank and no
// dimension larger than data's, the axis aside.
inline std::vector<int64_t> element_indices(const Tensor& indices, const Tensor& data,
                                            size_t axis) {
  bool fits = indices.rank() == data.rank();
  for (size_t d = 0; fits && d < data.rank(); ++d)
    fits = d == axis || indices.dim(d) <= data.dim(d);
  if (!fits)
    fail(ErrorKind::BadInput, "",
         "indices of shape " + shape_string(indices.shape()) + " do not fit data of shape " +
             shape_string(data.shape()));
  return checked_indices(indices, data.dim(axis));
}

}  // namespace bough::kernels
