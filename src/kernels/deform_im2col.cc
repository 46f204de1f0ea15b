#include "kernels/deform_im2col.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace bough::kernels {

namespace {

// Row-major coordinates of flat index i over `dims`.
void unravel(int64_t i, const std::vector<int64_t>& dims, std::vector<int64_t>& coords) {
  for (size_t d = dims.size(); d-- > 0;) {
    coords[d] = i % dims[d];
    i /= dims[d];
  }
}

// The 2^rank pixels around one sampling point, each as an image index and an interpolation
// weight (times `scale`, the mask); pixels outside the image get index -1: they read as 0.
template <typename T>
void corners_of(const Window& w, const std::vector<T>& pos, T scale, int64_t* index, T* weight) {
  const size_t r = w.rank();
  const size_t corners = size_t{1} << r;
  std::vector<int64_t> low(r);
  std::vector<T> frac(r);
  for (size_t d = 0; d < r; ++d) {
    // Some pixel around the point is inside only when it lies within (-1, in); the test is
    // also false for NaN, and keeps huge offsets away from the integer conversion.
    if (!(pos[d] > T(-1) && pos[d] < static_cast<T>(w.in[d]))) {
      std::fill(index, index + corners, int64_t{-1});
      std::fill(weight, weight + corners, T(0));
      return;
    }
    const T f = std::floor(pos[d]);
    low[d] = static_cast<int64_t>(f);
    frac[d] = pos[d] - f;
  }
  for (size_t c = 0; c < corners; ++c) {
    int64_t idx = 0;
    T wt = scale;
    for (size_t d = 0; d < r && idx >= 0; ++d) {
      const bool high = (c >> (r - 1 - d)) & 1;
      const int64_t at = low[d] + (high ? 1 : 0);
      idx = at < 0 || at >= w.in[d] ? -1 : idx * w.in[d] + at;
      wt *= high ? frac[d] : T(1) - frac[d];
    }
    index[c] = idx;
    weight[c] = idx < 0 ? T(0) : wt;
  }
}

}  // namespace

template <typename T>
void deform_im2col(const T* image, int64_t channels, const Window& w, const Deformation<T>& d,
                   int64_t p0, int64_t p1, T* col, util::ThreadPool& pool) {
  const size_t r = w.rank();
  const auto corners = int64_t{1} << r;
  const int64_t K = w.kernel_numel(), P = w.out_numel(), n = p1 - p0, in_numel = w.in_numel();
  const int64_t per_group = channels / d.offset_groups;
  // Work items are (offset group, kernel tap) pairs: the sampling points are computed once
  // and read by every channel of the group.
  const int64_t grain = util::grain_for(n * corners * (per_group + static_cast<int64_t>(r)) * 2);
  pool.parallel_for(d.offset_groups * K, grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> kc(r), oc(r), index(static_cast<size_t>(n * corners));
    std::vector<T> pos(r), weight(static_cast<size_t>(n * corners));
    for (int64_t item = b; item < e; ++item) {
      const int64_t g = item / K, k = item % K;
      unravel(k, w.kernel, kc);
      const T* off = d.offset + item * static_cast<int64_t>(r) * P;
      const T* mask = d.mask ? d.mask + item * P : nullptr;
      for (int64_t j = 0; j < n; ++j) {
        const int64_t p = p0 + j;
        unravel(p, w.out, oc);
        for (size_t a = 0; a < r; ++a)
          pos[a] = static_cast<T>(oc[a] * w.stride[a] - w.pad_begin[a] + kc[a] * w.dilation[a]) +
                   off[static_cast<int64_t>(a) * P + p];
        corners_of(w, pos, mask ? mask[p] : T(1), &index[static_cast<size_t>(j * corners)],
                   &weight[static_cast<size_t>(j * corners)]);
      }
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c) {
        const T* src = image + c * in_numel;
        T* row = col + (c * K + k) * n;
        for (int64_t j = 0; j < n; ++j) {
          T sum = 0;
          for (int64_t q = j * corners; q < (j + 1) * corners; ++q) {
            const int64_t at = index[static_cast<size_t>(q)];
            if (at >= 0) sum += weight[static_cast<size_t>(q)] * src[at];
          }
          row[j] = sum;
        }
      }
    }
  });
}

template void deform_im2col<float>(const float*, int64_t, const Window&, const Deformation<float>&,
                                   int64_t, int64_t, float*, util::ThreadPool&);
template void deform_im2col<double>(const double*, int64_t, const Window&,
                                    const Deformation<double>&, int64_t, int64_t, double*,
                                    util::ThreadPool&);

}  // namespace bough::kernels
