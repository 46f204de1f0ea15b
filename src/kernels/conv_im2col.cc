#include "kernels/conv_im2col.h"

#include <algorithm>
#include <vector>

namespace bough::kernels {

namespace {

// The coordinates of kernel tap `k` (row-major over w.kernel).
void tap_coords(const Window& w, int64_t k, std::vector<int64_t>& kc) {
  for (size_t d = w.rank(); d-- > 0;) {
    kc[d] = k % w.kernel[d];
    k /= w.kernel[d];
  }
}

// Walks output positions [p0, p1) in runs along the last dimension. For each run calls
// fn(image_row, first, o_last, n): image_row is the row-major offset of the image row the
// run reads (-1 when that row lies in the padding), first the index of the run's first
// position relative to p0, o_last the run's first coordinate along the last dimension, and n
// its length. `oc` is the caller's room for the output coordinates (w.rank() of them), so
// that a walk allocates nothing: im2col walks once per column-matrix row.
template <typename F>
void for_each_run(const Window& w, const std::vector<int64_t>& kc, std::vector<int64_t>& oc,
                  int64_t p0, int64_t p1, F&& fn) {
  const size_t r = w.rank();
  const int64_t out_last = w.out[r - 1];
  for (size_t d = r, rest = static_cast<size_t>(p0); d-- > 0;) {
    oc[d] = static_cast<int64_t>(rest) % w.out[d];
    rest /= static_cast<size_t>(w.out[d]);
  }
  for (int64_t p = p0; p < p1;) {
    int64_t row = 0;
    for (size_t d = 0; d + 1 < r; ++d) {
      const int64_t i = oc[d] * w.stride[d] - w.pad_begin[d] + kc[d] * w.dilation[d];
      if (row < 0 || i < 0 || i >= w.in[d])
        row = -1;
      else
        row = row * w.in[d] + i;
    }
    const int64_t n = std::min(p1 - p, out_last - oc[r - 1]);
    fn(row, p - p0, oc[r - 1], n);
    p += n;
    oc[r - 1] += n;
    for (size_t d = r - 1; d > 0 && oc[d] == w.out[d]; --d) {
      oc[d] = 0;
      ++oc[d - 1];
    }
  }
}

// The valid range [lo, hi) of o in a run along the last dimension: the o with
// 0 <= o*s + base < in.
void valid_range(int64_t base, int64_t s, int64_t in, int64_t o0, int64_t n, int64_t& lo,
                 int64_t& hi) {
  lo = o0;
  if (base + lo * s < 0) lo = (-base + s - 1) / s;
  hi = (in - base + s - 1) / s;  // first o with o*s + base >= in
  lo = std::clamp(lo, o0, o0 + n);
  hi = std::clamp(hi, lo, o0 + n);
}

// im2col, rows split across `pool` when given.
template <typename T>
void unroll(const T* image, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* col,
            util::ThreadPool* pool) {
  const size_t r = w.rank();
  const int64_t K = w.kernel_numel(), P = p1 - p0, in_numel = w.in_numel();
  const int64_t in_last = w.in[r - 1], s = w.stride[r - 1];
  // A row copies P elements: each is read and written once.
  const int64_t grain = util::grain_for(P * 2 * static_cast<int64_t>(sizeof(T)));
  auto rows = [&](int64_t b, int64_t e) {
    std::vector<int64_t> kc(r), oc(r);
    for (int64_t row = b; row < e; ++row) {
      tap_coords(w, row % K, kc);
      const T* src = image + (row / K) * in_numel;
      T* dst = col + row * P;
      const int64_t base = kc[r - 1] * w.dilation[r - 1] - w.pad_begin[r - 1];
      for_each_run(w, kc, oc, p0, p1, [&](int64_t irow, int64_t first, int64_t o0, int64_t n) {
        T* out = dst + first;
        if (irow < 0) {
          std::fill(out, out + n, T(0));
          return;
        }
        int64_t lo, hi;
        valid_range(base, s, in_last, o0, n, lo, hi);
        const T* line = src + irow * in_last;
        std::fill(out, out + (lo - o0), T(0));
        if (s == 1) {
          std::copy(line + lo + base, line + hi + base, out + (lo - o0));
        } else {
          for (int64_t o = lo; o < hi; ++o) out[o - o0] = line[o * s + base];
        }
        std::fill(out + (hi - o0), out + n, T(0));
      });
    }
  };
  if (pool)
    pool->parallel_for(channels * K, grain, rows);
  else
    rows(0, channels * K);
}

// col2im: each element of the column matrix put into its image position by
// put(line_element, value, channel); taps in the padding are dropped.
template <typename T, typename Put>
void col2im(const T* col, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* image,
            util::ThreadPool& pool, Put put) {
  const size_t r = w.rank();
  const int64_t K = w.kernel_numel(), P = p1 - p0, in_numel = w.in_numel();
  const int64_t in_last = w.in[r - 1], s = w.stride[r - 1];
  // A channel adds K * P elements into its image: each is read twice and written once.
  const int64_t grain = util::grain_for(K * P * 3 * static_cast<int64_t>(sizeof(T)));
  // Channels are independent: each writes only its own image.
  auto run = [&](int64_t b, int64_t e) {
    std::vector<int64_t> kc(r), oc(r);
    for (int64_t c = b; c < e; ++c) {
      T* dst = image + c * in_numel;
      for (int64_t k = 0; k < K; ++k) {
        tap_coords(w, k, kc);
        const T* src = col + (c * K + k) * P;
        const int64_t base = kc[r - 1] * w.dilation[r - 1] - w.pad_begin[r - 1];
        for_each_run(w, kc, oc, p0, p1, [&](int64_t irow, int64_t first, int64_t o0, int64_t n) {
          if (irow < 0) return;
          int64_t lo, hi;
          valid_range(base, s, in_last, o0, n, lo, hi);
          T* line = dst + irow * in_last;
          const T* in = src + first;
          for (int64_t o = lo; o < hi; ++o) put(line[o * s + base], in[o - o0], c);
        });
      }
    }
  };
  pool.parallel_for(channels, grain, run);
}

}  // namespace

template <typename T>
void im2col(const T* image, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* col,
            util::ThreadPool& pool) {
  unroll(image, channels, w, p0, p1, col, &pool);
}

template <typename T>
void im2col(const T* image, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* col) {
  unroll(image, channels, w, p0, p1, col, static_cast<util::ThreadPool*>(nullptr));
}

template <typename T>
void col2im_add(const T* col, int64_t channels, const Window& w, int64_t p0, int64_t p1, T* image,
                util::ThreadPool& pool) {
  col2im(col, channels, w, p0, p1, image, pool, [](T& at, T v, int64_t) { at += v; });
}

bool window_tiles_image(const Window& w) {
  for (size_t d = 0; d < w.rank(); ++d)
    if (w.stride[d] != w.kernel[d] || w.dilation[d] != 1 || w.pad_begin[d] != 0 ||
        w.pad_end[d] != 0 || w.in[d] != w.out[d] * w.stride[d])
      return false;
  return true;
}

namespace {

// One run of n positions from o0 along the last axis of a tiling window (stride == kernel
// == kw there): position o's taps 0..kw-1 fill image columns o*kw .. o*kw + kw - 1, each
// from its own row of the column matrix (src[t], at the run's first position), in order.
// KW: kw known when compiled (2: a 2x2 stride-2 upsampling), so that the loop interleaves
// whole vectors; 0: kw at run time.
template <int KW, typename T>
void tiled_run(const T* const* src, int64_t kw, int64_t n, T b, T* line) {
  const int64_t k = KW ? KW : kw;
  for (int64_t o = 0; o < n; ++o)
    for (int64_t t = 0; t < k; ++t) line[o * k + t] = src[t][o] + b;
}

}  // namespace

template <typename T>
void col2im_tiled(const T* col, int64_t channels, const Window& w, int64_t p0, int64_t p1,
                  const T* bias, T* image, util::ThreadPool& pool) {
  // Each image row is written in order: the taps of the last axis taken together (kw of
  // them) for every run of positions, the outer taps (ko) one at a time.
  const size_t r = w.rank();
  const int64_t K = w.kernel_numel(), P = p1 - p0, in_numel = w.in_numel();
  const int64_t kw = w.kernel[r - 1], in_last = w.in[r - 1];
  const int64_t grain = util::grain_for(K * P * 2 * static_cast<int64_t>(sizeof(T)));
  pool.parallel_for(channels, grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> kc(r), oc(r);
    std::vector<const T*> src(static_cast<size_t>(kw));
    for (int64_t c = b; c < e; ++c) {
      T* dst = image + c * in_numel;
      const T add = bias ? bias[c] : T(0);
      for (int64_t ko = 0; ko < K / kw; ++ko) {
        tap_coords(w, ko * kw, kc);
        for_each_run(w, kc, oc, p0, p1, [&](int64_t irow, int64_t first, int64_t o0, int64_t n) {
          for (int64_t t = 0; t < kw; ++t)
            src[static_cast<size_t>(t)] = col + (c * K + ko * kw + t) * P + first;
          T* line = dst + irow * in_last + o0 * kw;
          if (kw == 2)
            tiled_run<2>(src.data(), kw, n, add, line);
          else
            tiled_run<0>(src.data(), kw, n, add, line);
        });
      }
    }
  });
}

template void im2col<float>(const float*, int64_t, const Window&, int64_t, int64_t, float*,
                            util::ThreadPool&);
template void im2col<double>(const double*, int64_t, const Window&, int64_t, int64_t, double*,
                             util::ThreadPool&);
template void im2col<float>(const float*, int64_t, const Window&, int64_t, int64_t, float*);
template void im2col<double>(const double*, int64_t, const Window&, int64_t, int64_t, double*);
template void col2im_add<float>(const float*, int64_t, const Window&, int64_t, int64_t, float*,
                                util::ThreadPool&);
template void col2im_add<double>(const double*, int64_t, const Window&, int64_t, int64_t, double*,
                                 util::ThreadPool&);
template void col2im_tiled<float>(const float*, int64_t, const Window&, int64_t, int64_t,
                                  const float*, float*, util::ThreadPool&);
template void col2im_tiled<double>(const double*, int64_t, const Window&, int64_t, int64_t,
                                   const double*, double*, util::ThreadPool&);

}  // namespace bough::kernels
