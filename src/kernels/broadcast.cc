#include "kernels/broadcast.h"

#include <algorithm>

#include "bough/error.h"
#include "ir/storage.h"

namespace bough::kernels {

Dims broadcast_shape(std::span<const Dims* const> shapes) {
  size_t rank = 0;
  for (const Dims* s : shapes) rank = std::max(rank, s->size());
  Dims out;
  out.resize(rank, 1);
  for (const Dims* s : shapes) {
    size_t shift = rank - s->size();
    for (size_t i = 0; i < s->size(); ++i) {
      int64_t d = (*s)[i];
      int64_t& o = out[shift + i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string all;
      for (const Dims* t : shapes) all += (all.empty() ? "" : " and ") + shape_string(*t);
      fail(ErrorKind::BadInput, "", "shapes " + all + " cannot be broadcast together");
    }
  }
  return out;
}

bool prepare_broadcast_output(const Tensor& a, const Tensor& b, ElemType type, Tensor& out) {
  ir::reinit(out, type, broadcast_shape(a.shape(), b.shape()));
  const int64_t total = out.numel();
  return a.numel() == total && b.numel() == total;
}

Dims broadcast_shape(const Dims& a, const Dims& b) {
  if (a == b) return a;
  const Dims* shapes[] = {&a, &b};
  return broadcast_shape(shapes);
}

bool broadcasts_to(const Dims& from, const Dims& target) {
  if (from.size() > target.size()) return false;
  size_t shift = target.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != target[shift + i]) return false;
  return true;
}

BroadcastLoop make_broadcast_loop(const Dims& out, std::span<const Dims* const> ins) {
  BroadcastLoop L;
  L.inputs = static_cast<int>(ins.size());
  // Full-rank strides, dropping output dims of size 1.
  int64_t dims[kMaxBroadcastRank + 1];
  int64_t strides[kMaxBroadcastInputs][kMaxBroadcastRank + 1];
  int rank = 0;
  if (out.size() > kMaxBroadcastRank)
    fail(ErrorKind::Unsupported, "",
         "broadcasting beyond rank " + std::to_string(kMaxBroadcastRank));
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 1) continue;
    dims[rank] = out[d];
    for (int k = 0; k < L.inputs; ++k) {
      const Dims& s = *ins[static_cast<size_t>(k)];
      size_t shift = out.size() - s.size();
      int64_t stride = 0;
      if (d >= shift && s[d - shift] != 1) {
        stride = 1;
        for (size_t j = d - shift + 1; j < s.size(); ++j) stride *= s[j];
      }
      strides[k][rank] = stride;
    }
    ++rank;
  }
  if (rank == 0) {
    dims[0] = 1;
    for (int k = 0; k < L.inputs; ++k) strides[k][0] = 0;
    rank = 1;
  }
  // Collapse dim i into i+1 when every input is contiguous across them (or broadcast in both).
  int r = 0;
  L.dims[0] = dims[0];
  for (int k = 0; k < L.inputs; ++k) L.strides[k][0] = strides[k][0];
  for (int d = 1; d < rank; ++d) {
    bool merge = true;
    for (int k = 0; k < L.inputs && merge; ++k) {
      int64_t outer = L.strides[k][r], inner = strides[k][d];
      merge = (outer == 0 && inner == 0) || (inner != 0 && outer == inner * dims[d]);
    }
    if (merge) {
      L.dims[r] *= dims[d];
      for (int k = 0; k < L.inputs; ++k) L.strides[k][r] = strides[k][d];
    } else {
      ++r;
      L.dims[r] = dims[d];
      for (int k = 0; k < L.inputs; ++k) L.strides[k][r] = strides[k][d];
    }
  }
  L.rank = r + 1;
  return L;
}

}  // namespace bough::kernels
