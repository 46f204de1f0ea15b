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

// y[o] = r.finish(fold of r.step over the group of o, group size). R provides
// `using Acc`, `Acc init()`, `Acc step(Acc, T)`, `Acc merge(Acc, Acc)` and
// `T finish(Acc, int64_t count)`.
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
      Acc a0 = r.init(), a1 = r.init(), a2 = r.init(), a3 = r.init();
      int64_t l = 0;
      for (; l + 4 <= inner; l += 4) {
        a0 = r.step(a0, src[l]);
        a1 = r.step(a1, src[l + 1]);
        a2 = r.step(a2, src[l + 2]);
        a3 = r.step(a3, src[l + 3]);
      }
      for (; l < inner; ++l) a0 = r.step(a0, src[l]);
      acc[o] = r.merge(acc[o], r.merge(r.merge(a0, a1), r.merge(a2, a3)));
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
