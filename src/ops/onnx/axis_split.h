// A tensor seen around one axis as [outer, n, inner], for operators that run along the axis:
// each outer block (an n x inner slab) is computed on its own, so the thread pool splits the
// outer index. Before opset 13, Softmax, LogSoftmax and Hardmax coerce the input to 2-D at
// `axis` and run over all of the trailing part (n takes every dimension from the axis on).
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "bough/tensor.h"
#include "kernels/elementwise_loops.h"
#include "kernels/layout.h"
#include "util/thread_pool.h"

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

// Outer blocks per parallel task, for elements that each cost `element_work` (see
// util::kMinWorkPerThread).
inline int64_t outer_grain(const AxisSplit& s, int64_t element_work = kernels::kElementWork) {
  return util::grain_for(s.n * s.inner * element_work);
}

// fn(xs, ys) for each column x[o, :, i] of the outer blocks [o0, o1): xs points at its first
// element (the next is s.inner further on, s.n in all) and ys at the same place in y. As for
// kernels::for_each_pool_row, fn should hold the sizes its loops use by value.
template <typename T, typename Fn>
void for_each_column(const T* x, T* y, int64_t o0, int64_t o1, const AxisSplit& s, Fn&& fn) {
  const std::remove_cvref_t<Fn> column = fn;  // see kernels::for_each_pool_row
  const int64_t n = s.n, inner = s.inner;
  for (int64_t o = o0; o < o1; ++o)
    for (int64_t i = 0; i < inner; ++i) column(x + o * n * inner + i, y + o * n * inner + i);
}

// A new tensor of x's shape and element type T, written block by block: block(px, py, o0, o1)
// computes the outer blocks [o0, o1) of y (at py) from those of x (at px). The pool runs
// ranges of blocks in parallel, by what an element costs (`element_work`, see outer_grain).
template <typename T, typename Block>
Tensor map_outer_blocks(const Tensor& x, const AxisSplit& s, util::ThreadPool& pool, Block&& block,
                        int64_t element_work = kernels::kElementWork) {
  Tensor y(x.type(), x.shape());
  const T* px = x.data<T>();
  T* py = y.data<T>();
  pool.parallel_for(s.outer, outer_grain(s, element_work),
                    [&](int64_t o0, int64_t o1) { block(px, py, o0, o1); });
  return y;
}

}  // namespace bough::ops
