// Index tensors of the gathering operators (Gather, GatherElements, ...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bough/error.h"
#include "kernels/shape_args.h"

namespace bough::kernels {

// The elements of an integer index tensor, checked against an axis of `len` entries (negative
// ones count from the back) and made non-negative; throws Error(BadInput) when one is out
// of range.
// Fills `out` (reusing its storage, so a kernel that keeps it allocates nothing per call).
inline void checked_indices(const Tensor& indices, int64_t len, std::vector<int64_t>* out) {
  if (indices.type() != ElemType::Int64 && indices.type() != ElemType::Int32)
    fail(ErrorKind::BadInput, "", "indices must be int32 or int64");
  const auto n = static_cast<size_t>(indices.numel());
  out->resize(n);
  for (size_t k = 0; k < n; ++k) {
    int64_t i = indices.type() == ElemType::Int64 ? indices.data<int64_t>()[k]
                                                  : indices.data<int32_t>()[k];
    if (i < -len || i >= len)
      fail(ErrorKind::BadInput, "",
           "index " + std::to_string(i) + " is out of range for an axis of " + std::to_string(len));
    (*out)[k] = i < 0 ? i + len : i;
  }
}

inline std::vector<int64_t> checked_indices(const Tensor& indices, int64_t len) {
  std::vector<int64_t> idx;
  checked_indices(indices, len, &idx);
  return idx;
}

}  // namespace bough::kernels
