#include "kernels/shape_copy.h"

#include <algorithm>
#include <vector>

#include "bough/error.h"
#include "ir/float_formats.h"
#include "kernels/dispatch.h"
#include "util/thread_pool.h"

namespace bough::kernels {

namespace {

// The walk with dimensions of size 1 dropped and neighbours merged where both sides are
// contiguous across them, so the innermost run is as long as possible.
struct Walk {
  std::vector<int64_t> dims, src, dst;
};

Walk collapse(std::span<const int64_t> dims, std::span<const int64_t> s,
              std::span<const int64_t> t) {
  Walk w;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] == 1) continue;
    if (!w.dims.empty() && w.src.back() == s[d] * dims[d] && w.dst.back() == t[d] * dims[d]) {
      w.dims.back() *= dims[d];
      w.src.back() = s[d];
      w.dst.back() = t[d];
      continue;
    }
    w.dims.push_back(dims[d]);
    w.src.push_back(s[d]);
    w.dst.push_back(t[d]);
  }
  if (w.dims.empty()) w = Walk{{1}, {0}, {0}};
  return w;
}

// Calls run(src_offset, dst_offset) for the inner runs numbered [begin, end) (a run is one
// coordinate of the outer dims; offsets in elements).
template <typename RunFn>
void for_runs(const Walk& w, int64_t begin, int64_t end, RunFn&& run) {
  const size_t outer = w.dims.size() - 1;
  std::vector<int64_t> coord(outer, 0);
  int64_t so = 0, to = 0, rest = begin;
  for (size_t d = outer; d-- > 0;) {
    coord[d] = rest % w.dims[d];
    rest /= w.dims[d];
    so += coord[d] * w.src[d];
    to += coord[d] * w.dst[d];
  }
  for (int64_t r = begin; r < end; ++r) {
    run(so, to);
    for (size_t d = outer; d-- > 0;) {
      so += w.src[d];
      to += w.dst[d];
      if (++coord[d] < w.dims[d]) break;
      so -= coord[d] * w.src[d];
      to -= coord[d] * w.dst[d];
      coord[d] = 0;
    }
  }
}

// Copies the inner runs numbered [begin, end).
template <typename T>
void copy_runs(const T* src, T* dst, const Walk& w, int64_t begin, int64_t end) {
  const int64_t n = w.dims.back(), s = w.src.back(), t = w.dst.back();
  for_runs(w, begin, end, [&](int64_t so, int64_t to) {
    const T* a = src + so;
    T* b = dst + to;
    if (s == 1 && t == 1) {
      std::copy_n(a, n, b);
    } else if (s == 0 && t == 1) {
      std::fill_n(b, n, *a);
    } else {
      for (int64_t i = 0; i < n; ++i) b[i * t] = a[i * s];
    }
  });
}

// The same walk over packed sub-byte fields, element by element on one thread (two
// neighbours share a byte, so threads could not split the writes).
void copy_packed(const Tensor& src, StridedView from, Tensor& dst, StridedView to, const Walk& w,
                 int64_t runs) {
  const int bits = elem_bits(src.type());
  const auto* s = src.data<uint8_t>();
  auto* t = dst.data<uint8_t>();
  const int64_t n = w.dims.back(), ss = w.src.back(), ts = w.dst.back();
  for_runs(w, 0, runs, [&](int64_t src_at, int64_t dst_at) {
    for (int64_t i = 0; i < n; ++i)
      set_packed(t, to.base + dst_at + i * ts, bits,
                 get_packed(s, from.base + src_at + i * ss, bits));
  });
}

}  // namespace

void strided_copy(const Tensor& src, StridedView from, Tensor& dst, StridedView to,
                  std::span<const int64_t> dims, util::ThreadPool* pool) {
  if (src.type() != dst.type()) fail(ErrorKind::BadInput, "", "copy between different types");
  for (int64_t d : dims)
    if (d == 0) return;
  Walk w = collapse(dims, from.strides, to.strides);
  int64_t runs = 1;
  for (size_t d = 0; d + 1 < w.dims.size(); ++d) runs *= w.dims[d];
  if (is_sub_byte(src.type())) return copy_packed(src, from, dst, to, w, runs);
  visit_storage(src.type(), "copy", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* s = elements<T>(src) + from.base;
    T* t = elements<T>(dst) + to.base;
    auto body = [&](int64_t b, int64_t e) { copy_runs<T>(s, t, w, b, e); };
    if (pool)
      // A run copies its elements: each is read and written once.
      pool->parallel_for_work(runs, w.dims.back() * 2 * static_cast<int64_t>(sizeof(T)), body);
    else
      body(0, runs);
  });
}

}  // namespace bough::kernels
