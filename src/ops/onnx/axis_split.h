// The softmax-family view of a tensor around an axis: [outer, n, inner], the operator
// running along n. Before opset 13, Softmax, LogSoftmax and Hardmax coerce the input to 2-D
// at `axis` and run over all of the trailing part (n takes every dimension from the axis on).
#pragma once

#include <cstdint>

#include "bough/tensor.h"
#include "kernels/layout.h"

namespace bough::ops {

struct AxisSplit {
  int64_t outer = 1, n = 1, inner = 1;
};

inline AxisSplit split_at_axis(const Dims& shape, int64_t axis, bool coerce_2d) {
  AxisSplit s;
  const auto rank = static_cast<int64_t>(shape.size());
  if (rank == 0) return s;
  axis = kernels::normalize_axis(axis, rank);
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t dim = shape[static_cast<size_t>(d)];
    if (d < axis)
      s.outer *= dim;
    else if (d == axis || coerce_2d)
      s.n *= dim;
    else
      s.inner *= dim;
  }
  return s;
}

}  // namespace bough::ops
