#include "kernels/pool_window.h"

#include <algorithm>

#include "bough/error.h"
#include "bough/tensor.h"

namespace bough::kernels {

PoolWindows::PoolWindows(const Window& w) : w_(w) {
  const size_t r = w.rank();
  first_.resize(r);
  count_.resize(r);
  padded_.resize(r);
  for (size_t d = 0; d < r; ++d) {
    if (d + 1 < r) rows_ *= w.out[d];
    for (int64_t o = 0; o < w.out[d]; ++o) {
      int64_t first = 0, count = 0, padded = 0;
      for (int64_t k = 0; k < w.kernel[d]; ++k) {
        const int64_t i = o * w.stride[d] - w.pad_begin[d] + k * w.dilation[d];
        if (i >= 0 && i < w.in[d] && count++ == 0) first = i;
        if (i >= -w.pad_begin[d] && i < w.in[d] + w.pad_end[d]) ++padded;
      }
      first_[d].push_back(first);
      count_[d].push_back(count);
      padded_[d].push_back(padded);
    }
  }
}

int64_t PoolWindows::image_rows(int64_t q, std::vector<int64_t>& offsets) const {
  const size_t outer = w_.rank() - 1;
  // The output coordinate, then the tap within each dimension's run of valid taps: on the
  // stack for ordinary ranks.
  constexpr size_t kInline = 8;
  int64_t inline_buf[2 * kInline] = {};
  std::vector<int64_t> heap;
  int64_t* c = inline_buf;
  if (outer > kInline) {
    heap.assign(2 * outer, 0);
    c = heap.data();
  }
  int64_t* tap = c + std::max(outer, kInline);
  int64_t padded = 1;
  bool empty = false;
  for (size_t d = outer; d-- > 0;) {
    c[d] = q % w_.out[d];
    q /= w_.out[d];
    padded *= padded_[d][static_cast<size_t>(c[d])];
    empty = empty || count_[d][static_cast<size_t>(c[d])] == 0;
  }
  offsets.clear();
  if (empty) return padded;
  while (true) {
    int64_t off = 0;
    for (size_t d = 0; d < outer; ++d)
      off = off * w_.in[d] + first_[d][static_cast<size_t>(c[d])] + tap[d] * w_.dilation[d];
    offsets.push_back(off * w_.in.back());
    size_t d = outer;
    while (d-- > 0 && ++tap[d] == count_[d][static_cast<size_t>(c[d])]) tap[d] = 0;
    if (d == static_cast<size_t>(-1)) break;
  }
  return padded;
}

Window pool_window(const WindowAttrs& attrs, std::span<const int64_t> x_shape) {
  if (x_shape.size() < 3)
    fail(ErrorKind::BadInput, "",
         "pooling needs an input of rank 3 or more, got shape " + shape_string(x_shape));
  return resolve_window(attrs, x_shape.subspan(2));
}

std::vector<int64_t> pooled_shape(std::span<const int64_t> x_shape, const Window& w) {
  std::vector<int64_t> shape{x_shape[0], x_shape[1]};
  shape.insert(shape.end(), w.out.begin(), w.out.end());
  return shape;
}

int64_t column_major_offset(const Window& w, int64_t offset) {
  int64_t before = w.in_numel(), col = 0;  // before: the product of the dimensions before d
  for (size_t d = w.rank(); d-- > 0;) {
    before /= w.in[d];
    col += (offset % w.in[d]) * before;
    offset /= w.in[d];
  }
  return col;
}

}  // namespace bough::kernels
