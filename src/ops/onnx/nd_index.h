// Index tuples of GatherND and ScatterND: the last dimension of `indices` (k entries) names
// a position in k consecutive dimensions of data.
#pragma once

#include <string>
#include <vector>

#include "bough/error.h"
#include "kernels/shape_args.h"

namespace bough::ops {

// For each tuple of `indices` (last dimension k): the element offset, within one block of
// shape `dims`, of the slice it names (dims[k:] stay whole). Negative entries count from
// the back; throws Error(BadInput) for an entry out of range.
inline std::vector<int64_t> nd_offsets(const Tensor& indices, std::span<const int64_t> dims) {
  if (indices.rank() == 0) fail(ErrorKind::BadInput, "", "indices must have rank >= 1");
  const int64_t k = indices.dim(indices.rank() - 1);
  if (k < 1 || k > static_cast<int64_t>(dims.size()))
    fail(ErrorKind::BadInput, "",
         "index tuples of length " + std::to_string(k) + " do not fit data of rank " +
             std::to_string(dims.size()));
  const std::vector<int64_t> raw = kernels::read_ints(indices, "indices");
  const std::vector<int64_t> strides = kernels::contiguous_strides(dims);
  std::vector<int64_t> offsets(k == 0 ? 0 : raw.size() / static_cast<size_t>(k));
  for (size_t t = 0; t < offsets.size(); ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < k; ++j) {
      int64_t v = raw[t * static_cast<size_t>(k) + static_cast<size_t>(j)];
      const int64_t len = dims[static_cast<size_t>(j)];
      if (v < -len || v >= len)
        fail(ErrorKind::BadInput, "",
             "index " + std::to_string(v) + " is out of range for an axis of " +
                 std::to_string(len));
      if (v < 0) v += len;
      off += v * strides[static_cast<size_t>(j)];
    }
    offsets[t] = off;
  }
  return offsets;
}

}  // namespace bough::ops
