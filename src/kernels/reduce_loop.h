// Reductions over a set of axes: the shape plan, and the loop every reduce operator shares.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bough/tensor.h"

namespace bough::kernels {

// The input seen with size-1 dimensions dropped and adjacent dimensions of the same kind
// (reduced or kept) merged, so the loop below has few, long dimensions.
struct ReducePlan {
  Dims out_shape;             // reduced dimensions stay as 1 with keepdims, else vanish
  std::vector<int64_t> dims;  // merged dimensions, outermost first; never empty
  std::vector<bool> reduced;  // whether each merged dimension is reduced
  int64_t out_numel = 1;
  int64_t group = 1;  // input elements that make one output element
};

// `axes` must be normalized (0 <= axis < rank); empty means every axis.
ReducePlan plan_reduce(const Dims& shape, std::span<const int64_t> axes, bool keepdims);

// The fold of r.step over x[0, n), n >= 1: the reducer's own `fold` when it has one (a
// vector kernel), else kLanes independent partial results merged at the end (sums
// vectorize over them).
template <typename T, typename R>
typename R::Acc fold_run(const R& r, const T* x, int64_t n) {
  if constexpr (requires { r.fold(x, n); }) {
    return r.fold(x, n);
  } else {
    constexpr int64_t kLanes = 16;
    typename R::Acc part[kLanes];
    std::fill(part, part + kLanes, r.init());
    int64_t l = 0;
    for (; l + kLanes <= n; l += kLanes)
      for (int64_t q = 0; q < kLanes; ++q) part[q] = r.step(part[q], x[l + q]);
    for (; l < n; ++l) part[0] = r.step(part[0], x[l]);
    for (int64_t width = kLanes / 2; width > 0; width /= 2)
      for (int64_t q = 0; q < width; ++q) part[q] = r.merge(part[q], part[q + width]);
    return part[0];
  }
}

// y[o] = r.finish(fold of r.step over the group of o, group size). R provides
// `using Acc`, `Acc init()`, `Acc step(Acc, T)`, `Acc merge(Acc, Acc)` and
// `T finish(Acc, int64_t count)`, and may provide `Acc fold(const T*, int64_t n)` for a
// contiguous run (see fold_run).
template <typename T, typename R>
void reduce(const ReducePlan& p, const T* x, T* y, const R& r) {
  using Acc = typename R::Acc;
  std::unique_ptr<Acc[]> acc(new Acc[static_cast<size_t>(p.out_numel)]);  // not vector<bool>
  std::fill(acc.get(), acc.get() + p.out_numel, r.init());
  const int rank = static_cast<int>(p.dims.size());
  std::vector<int64_t> ostride(rank, 0), coord(rank, 0);
  for (int64_t d = rank - 1, s = 1; d >= 0; --d) {
    if (p.reduced[d]) continue;
    ostride[d] = s;
    s *= p.dims[d];
  }
  const int64_t inner = p.dims[rank - 1];
  int64_t outer = 1;
  for (int d = 0; d < rank - 1; ++d) outer *= p.dims[d];
  if (inner == 0) outer = 0;
  int64_t o = 0;
  for (int64_t row = 0; row < outer; ++row) {
    const T* src = x + row * inner;
    if (p.reduced[rank - 1]) {  // a contiguous run folds into one output element
      acc[o] = r.merge(acc[o], fold_run(r, src, inner));
    } else {  // a contiguous run folds into a row of output elements
      Acc* dst = acc.get() + o;
      for (int64_t l = 0; l < inner; ++l) dst[l] = r.step(dst[l], src[l]);
    }
    for (int d = rank - 2; d >= 0; --d) {
      o += ostride[d];
      if (++coord[d] < p.dims[d]) break;
      o -= coord[d] * ostride[d];
      coord[d] = 0;
    }
  }
  for (int64_t i = 0; i < p.out_numel; ++i) y[i] = r.finish(acc[i], p.group);
}

}  // namespace bough::kernels
