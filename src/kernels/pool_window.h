// The taps of pooling windows (MaxPool, AveragePool, LpPool). The output of one (batch,
// channel) plane is walked row by row (a row: every coordinate but the last fixed); a row's
// windows all cover the same image rows, and along the last dimension output j covers
// count(j) taps from first(j), dilation() apart.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "bough/tensor.h"
#include "kernels/conv_window.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"
#include "kernels/through_float.h"
#include "util/thread_pool.h"

namespace bough::kernels {

class PoolWindows {
 public:
  explicit PoolWindows(const Window& w);

  // Output rows per plane, and positions per row.
  int64_t rows() const { return rows_; }
  int64_t row_length() const { return w_.out.back(); }
  // The plane offsets of the image rows (last coordinate 0) covered by output row q, written
  // to `offsets`; returns how many of the row's taps over the other dimensions lie inside
  // the padded extent [-pad_begin, in + pad_end).
  int64_t image_rows(int64_t q, std::vector<int64_t>& offsets) const;

  // Along the last dimension, for output index j: the first image index inside the image,
  // how many taps are inside the image, and how many inside the padded extent.
  int64_t first(int64_t j) const { return first_.back()[static_cast<size_t>(j)]; }
  int64_t count(int64_t j) const { return count_.back()[static_cast<size_t>(j)]; }
  int64_t padded(int64_t j) const { return padded_.back()[static_cast<size_t>(j)]; }
  int64_t dilation() const { return w_.dilation.back(); }

  // acc[j] = fold(acc[j], v) for every output j of a row and every tap v of its window inside
  // the image, reading the image rows at `rows` of `plane`. Taps outermost, so the loop over
  // j is a plain strided walk.
  template <typename T, typename Fold>
  void fold_row(const T* plane, std::span<const int64_t> rows, T* acc, Fold fold) const {
    const int64_t len = w_.out.back(), in = w_.in.back(), s = w_.stride.back();
    for (int64_t row : rows)
      for (int64_t k = 0; k < w_.kernel.back(); ++k) {
        const int64_t base = k * w_.dilation.back() - w_.pad_begin.back();
        // The outputs j with 0 <= j*s + base < in.
        const int64_t lo = base >= 0 ? 0 : (-base + s - 1) / s;
        const int64_t hi = std::min(len, in - base > 0 ? (in - base + s - 1) / s : 0);
        const T* p = plane + row;
        if (s == 1) {
          for (int64_t j = lo; j < hi; ++j) acc[j] = fold(acc[j], p[j + base]);
        } else {
          for (int64_t j = lo; j < hi; ++j) acc[j] = fold(acc[j], p[j * s + base]);
        }
      }
  }

 private:
  Window w_;
  int64_t rows_ = 1;
  // Per dimension and output index: first image index inside the image, taps inside the
  // image, taps inside the padded extent.
  std::vector<std::vector<int64_t>> first_, count_, padded_;
};

// How a pooling kernel walks its output: row(plane, out, image_rows, padded, pl) for every
// output row of every (batch, channel) plane pl of x, spread over the pool. `plane` points at
// the plane of x (T elements), `out` at the row's row_length() outputs in y, `image_rows` and
// `padded` are what win.image_rows gives for the row. `row` should capture the scalars its
// loops use by value, and each task calls a const copy of it: the compiler then knows they
// stay put across the out-of-line image_rows call and keeps them in registers. (Read through
// references, or from a closure it may not take as constant, they were loaded again on every
// row: AveragePool ran 11% slower, MaxPool 2.5%.)
template <typename T, typename Row>
void for_each_pool_row(const Tensor& x, Tensor& y, const Window& w, const PoolWindows& win,
                       util::ThreadPool& pool, Row&& row) {
  const int64_t planes = x.dim(0) * x.dim(1), in = w.in_numel(), P = w.out_numel();
  const int64_t rows = win.rows(), len = win.row_length();
  const T* src = x.data<T>();
  T* dst = y.data<T>();
  const int64_t grain = util::grain_for(len * w.kernel_numel() * kElementWork);
  pool.parallel_for(planes * rows, grain, [&](int64_t b, int64_t e) {
    const std::remove_cvref_t<Row> fn = row;
    std::vector<int64_t> image_rows;
    for (int64_t item = b; item < e; ++item) {
      const int64_t pl = item / rows, q = item % rows;
      const int64_t padded = win.image_rows(q, image_rows);
      fn(src + pl * in, dst + pl * P + q * len, std::span<const int64_t>(image_rows), padded, pl);
    }
  });
}

// The window of a pooling operator over x (N x C x D1..Dn); throws Error(BadInput) when x has
// fewer than 3 dimensions or the attributes do not fit.
Window pool_window(const WindowAttrs& attrs, std::span<const int64_t> x_shape);
// (N, C, out...) for x (N x C x ...).
std::vector<int64_t> pooled_shape(std::span<const int64_t> x_shape, const Window& w);

// The Y of a float pooling operator (`name`) over X of any float type, float16 and bfloat16
// through float: Y of X's pooled shape, filled by fill(tag, x, y, w) with x and y in the
// compute type (`tag` names it: float or double) and w the window of `attrs` over X.
template <typename Fill>
Tensor window_pool_float(const Tensor& in, const WindowAttrs& attrs, const char* name,
                         Fill&& fill) {
  const Window w = pool_window(attrs, in.shape());
  auto pool = [&](const Tensor& x) {
    Tensor y(x.type(), Dims(pooled_shape(x.shape(), w)));
    visit_float(x.type(), name, [&](auto tag) { fill(tag, x, y, w); });
    return y;
  };
  return through_float(pool, in);
}

// The column-major (storage_order 1) offset of the row-major plane offset `offset`.
int64_t column_major_offset(const Window& w, int64_t offset);

}  // namespace bough::kernels
