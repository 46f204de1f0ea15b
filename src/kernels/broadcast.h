// One broadcasting iterator for every elementwise kernel.
//
// Shapes are aligned at the right; a dimension of 1 stretches to the other's size
// (multidirectional, numpy rules). The loop collapses adjacent dimensions that share a
// broadcast pattern, so the innermost run is contiguous (stride 1) or a repeated scalar
// (stride 0) for each input.
#pragma once

#include <cstdint>
#include <span>

#include "bough/tensor.h"

namespace bough::kernels {

inline constexpr int kMaxBroadcastInputs = 3;
inline constexpr int kMaxBroadcastRank = 16;

// The multidirectional broadcast of `shapes`; throws Error(BadInput) naming them on mismatch.
Dims broadcast_shape(std::span<const Dims* const> shapes);
Dims broadcast_shape(const Dims& a, const Dims& b);
// For shapes that differ: makes `out` a `type` tensor of their broadcast shape (see
// prepare_binary_output) and says whether both inputs have its element count.
bool prepare_broadcast_output(const Tensor& a, const Tensor& b, ElemType type, Tensor& out);
// True when `from` broadcasts to `target` unidirectionally (Gemm's C, PRelu's slope, Expand).
bool broadcasts_to(const Dims& from, const Dims& target);

struct BroadcastLoop {
  int rank = 1;
  int inputs = 0;
  int64_t dims[kMaxBroadcastRank] = {1};
  int64_t strides[kMaxBroadcastInputs][kMaxBroadcastRank] = {};

  int64_t inner() const { return dims[rank - 1]; }
  int64_t outer() const {
    int64_t n = 1;
    for (int i = 0; i < rank - 1; ++i) n *= dims[i];
    return n;
  }
  // 1 or 0: whether input k advances along the inner run.
  int64_t inner_stride(int k) const { return strides[k][rank - 1]; }
};

BroadcastLoop make_broadcast_loop(const Dims& out, std::span<const Dims* const> ins);

// Calls run(out_offset, in_offsets, n) for the inner runs numbered [begin, end).
template <typename F>
void for_each_run(const BroadcastLoop& L, int64_t begin, int64_t end, F&& run) {
  if (begin >= end) return;
  int outer_rank = L.rank - 1;
  int64_t coord[kMaxBroadcastRank] = {};
  int64_t offs[kMaxBroadcastInputs] = {};
  int64_t rest = begin;
  for (int d = outer_rank - 1; d >= 0; --d) {
    coord[d] = rest % L.dims[d];
    rest /= L.dims[d];
    for (int k = 0; k < L.inputs; ++k) offs[k] += coord[d] * L.strides[k][d];
  }
  const int64_t n = L.inner();
  for (int64_t r = begin; r < end; ++r) {
    run(r * n, static_cast<const int64_t*>(offs), n);
    for (int d = outer_rank - 1; d >= 0; --d) {
      for (int k = 0; k < L.inputs; ++k) offs[k] += L.strides[k][d];
      if (++coord[d] < L.dims[d]) break;
      for (int k = 0; k < L.inputs; ++k) offs[k] -= coord[d] * L.strides[k][d];
      coord[d] = 0;
    }
  }
}

}  // namespace bough::kernels
