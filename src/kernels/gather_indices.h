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
inline std::vector<int64_t> checked_indices(const Tensor& indices, int64_t len) {
  std::vector<int64_t> idx = read_ints(indices, "indices");
  for (int64_t& i : idx) {
    if (i < -len || i >= len)
      fail(ErrorKind::BadInput, "",
           "index " + std::to_string(i) + " is out of range for an axis of " + std::to_string(len));
    if (i < 0) i += len;
  }
  return idx;
}

}  // namespace bough::kernels
