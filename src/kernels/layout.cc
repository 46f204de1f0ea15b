#include "kernels/layout.h"

#include <vector>

#include "bough/error.h"
#include "kernels/dispatch.h"

namespace bough::kernels {

int64_t normalize_axis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    fail(ErrorKind::BadInput, "",
         "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

Tensor transpose(const Tensor& x, std::span<const int64_t> perm) {
  const size_t rank = x.rank();
  if (perm.size() != rank) fail(ErrorKind::BadInput, "", "permutation does not match the rank");
  Dims out_shape;
  std::vector<int64_t> in_strides(rank, 1), strides(rank);
  for (size_t i = rank; i-- > 1;) in_strides[i - 1] = in_strides[i] * x.dim(i);
  std::vector<bool> seen(rank, false);
  for (size_t i = 0; i < rank; ++i) {
    int64_t p = perm[i];
    if (p < 0 || p >= static_cast<int64_t>(rank) || seen[static_cast<size_t>(p)])
      fail(ErrorKind::BadInput, "", "invalid permutation");
    seen[static_cast<size_t>(p)] = true;
    out_shape.push_back(x.dim(static_cast<size_t>(p)));
    strides[i] = in_strides[static_cast<size_t>(p)];
  }
  if (is_sub_byte(x.type())) fail(ErrorKind::Unsupported, "", "transposing sub-byte element types");
  Tensor out(x.type(), out_shape);
  const int64_t total = out.numel();
  if (total == 0) return out;
  visit_storage(x.type(), "transpose", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elements<T>(x);
    T* dst = elements<T>(out);
    std::vector<int64_t> coord(rank, 0);
    int64_t offset = 0;
    for (int64_t i = 0; i < total; ++i) {
      dst[i] = src[offset];
      for (size_t d = rank; d-- > 0;) {
        offset += strides[d];
        if (++coord[d] < out_shape[d]) break;
        offset -= coord[d] * strides[d];
        coord[d] = 0;
      }
    }
  });
  return out;
}

Tensor move_axis(const Tensor& x, int64_t from, int64_t to) {
  if (from == to) return x;
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < static_cast<int64_t>(x.rank()); ++i)
    if (i != from) perm.push_back(i);
  perm.insert(perm.begin() + to, from);
  return transpose(x, perm);
}

Tensor select(const Tensor& x, int64_t axis, int64_t index) {
  Dims shape = x.shape();
  shape.erase(static_cast<size_t>(axis));
  if (axis == 0) return x.view(index * shape.numel(), shape);
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= x.dim(static_cast<size_t>(i));
  for (size_t i = static_cast<size_t>(axis) + 1; i < x.rank(); ++i) inner *= x.dim(i);
  const int64_t len = x.dim(static_cast<size_t>(axis));
  Tensor out(x.type(), shape);
  visit_storage(x.type(), "select", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elements<T>(x);
    T* dst = elements<T>(out);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) dst[o * inner + i] = src[(o * len + index) * inner + i];
  });
  return out;
}

Tensor reverse_leading(const Tensor& x) {
  Tensor out(x.type(), x.shape());
  const int64_t len = x.rank() ? x.dim(0) : 1;
  const int64_t item = len ? x.numel() / len : 0;
  visit_storage(x.type(), "reverse", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elements<T>(x);
    T* dst = elements<T>(out);
    for (int64_t t = 0; t < len; ++t)
      for (int64_t i = 0; i < item; ++i) dst[t * item + i] = src[(len - 1 - t) * item + i];
  });
  return out;
}

}  // namespace bough::kernels
