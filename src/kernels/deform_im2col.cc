#include "kernels/deform_im2col.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "bough/error.h"

namespace bough::kernels {

namespace {

// Row-major coordinates of flat index i over `dims`.
void unravel(int64_t i, const std::vector<int64_t>& dims, std::vector<int64_t>& coords) {
  for (size_t d = dims.size(); d-- > 0;) {
    coords[d] = i % dims[d];
    i /= dims[d];
  }
}

// The images with a border of one zero pixel on every side: every pixel around a sampling
// point that lies within (-1, in) along each axis is then a real element, inside the image or
// a zero of the border, so sampling needs no bounds tests (and never multiplies a pixel from
// outside, which might be inf, by a weight of 0). Indexes within a padded image are int32,
// which lets the sampling loop gather 8 floats at once.
template <typename T>
class PaddedImages {
 public:
  PaddedImages(const T* image, int64_t channels, const Window& w, util::ThreadPool& pool)
      : dims_(w.in) {
    for (int64_t& d : dims_) d += 2;
    numel_ = 1;
    for (int64_t d : dims_) numel_ *= d;
    if (numel_ > std::numeric_limits<int32_t>::max())
      fail(ErrorKind::Unsupported, "",
           "DeformConv images of more than 2^31 elements per channel are not supported");
    data_.assign(static_cast<size_t>(channels * numel_), T(0));
    const int64_t last = w.in.back(), rows = last > 0 ? w.in_numel() / last : 0;
    pool.parallel_for(channels, util::grain_for(w.in_numel() * 2 * int64_t{sizeof(T)}),
                      [&](int64_t b, int64_t e) {
                        std::vector<int64_t> at(w.rank());
                        for (int64_t c = b; c < e; ++c)
                          for (int64_t row = 0; row < rows; ++row) {
                            unravel(row * last, w.in, at);
                            std::copy_n(image + c * w.in_numel() + row * last, last,
                                        data_.data() + c * numel_ + index(at));
                          }
                      });
  }

  const T* channel(int64_t c) const { return data_.data() + c * numel_; }
  // The element of image coordinates `at` (each within [-1, in]).
  int32_t index(const std::vector<int64_t>& at) const {
    int64_t i = 0;
    for (size_t d = 0; d < dims_.size(); ++d) i = i * dims_[d] + at[d] + 1;
    return static_cast<int32_t>(i);
  }

 private:
  std::vector<int64_t> dims_;
  int64_t numel_;
  std::vector<T> data_;
};

// The 2^rank pixels around one sampling point in the padded images, as indexes and
// interpolation weights (times `scale`, the mask). A point with no pixel of the image around
// it reads the border's first zero with weight 0. Corner c goes to index[c * stride] and
// weight[c * stride]. `low`, `frac` and `at` are scratch of w.rank() elements.
template <typename T>
void corners_of(const Window& w, const PaddedImages<T>& images, const std::vector<T>& pos, T scale,
                std::vector<int64_t>& low, std::vector<T>& frac, std::vector<int64_t>& at,
                int32_t* index, T* weight, int64_t stride) {
  const size_t r = w.rank();
  const size_t corners = size_t{1} << r;
  for (size_t d = 0; d < r; ++d) {
    // False for NaN too, and keeps huge offsets away from the integer conversion.
    if (!(pos[d] > T(-1) && pos[d] < static_cast<T>(w.in[d]))) {
      for (size_t c = 0; c < corners; ++c) {
        index[c * stride] = 0;
        weight[c * stride] = T(0);
      }
      return;
    }
    const T f = std::floor(pos[d]);
    low[d] = static_cast<int64_t>(f);
    frac[d] = pos[d] - f;
  }
  for (size_t c = 0; c < corners; ++c) {
    T wt = scale;
    for (size_t d = 0; d < r; ++d) {
      const bool high = (c >> (r - 1 - d)) & 1;
      at[d] = low[d] + (high ? 1 : 0);
      wt *= high ? frac[d] : T(1) - frac[d];
    }
    index[c * stride] = images.index(at);
    weight[c * stride] = wt;
  }
}

// row[j] = the samples of `src` at position j's corners: corner c's index and weight are
// index[c * n + j] and weight[c * n + j]. Corner-major, so that the loop over positions has
// no dependency between iterations and vectorizes (gathers).
template <typename T>
void blend_row(const T* __restrict src, const int32_t* __restrict index, const T* __restrict weight,
               int64_t n, int64_t corners, T* __restrict row) {
  for (int64_t j = 0; j < n; ++j) row[j] = weight[j] * src[index[j]];
  for (int64_t c = 1; c < corners; ++c) {
    const int32_t* __restrict ic = index + c * n;
    const T* __restrict wc = weight + c * n;
    for (int64_t j = 0; j < n; ++j) row[j] += wc[j] * src[ic[j]];
  }
}

}  // namespace

template <typename T>
void deform_im2col(const T* image, int64_t channels, const Window& w, const Deformation<T>& d,
                   int64_t p0, int64_t p1, T* col, util::ThreadPool& pool) {
  const size_t r = w.rank();
  const auto corners = int64_t{1} << r;
  const int64_t K = w.kernel_numel(), P = w.out_numel(), n = p1 - p0;
  const int64_t per_group = channels / d.offset_groups;
  const PaddedImages<T> images(image, channels, w, pool);
  // Work items are (offset group, kernel tap) pairs: the sampling points are computed once
  // and read by every channel of the group.
  const int64_t grain = util::grain_for(n * corners * (per_group + static_cast<int64_t>(r)) * 2);
  pool.parallel_for(d.offset_groups * K, grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> kc(r), oc(r), low(r), at(r);
    std::vector<int32_t> index(static_cast<size_t>(n * corners));
    std::vector<T> pos(r), frac(r), weight(static_cast<size_t>(n * corners));
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
        corners_of(w, images, pos, mask ? mask[p] : T(1), low, frac, at,
                   &index[static_cast<size_t>(j)], &weight[static_cast<size_t>(j)], n);
      }
      for (int64_t c = g * per_group; c < (g + 1) * per_group; ++c)
        blend_row(images.channel(c), index.data(), weight.data(), n, corners,
                  col + (c * K + k) * n);
    }
  });
}

template void deform_im2col<float>(const float*, int64_t, const Window&, const Deformation<float>&,
                                   int64_t, int64_t, float*, util::ThreadPool&);
template void deform_im2col<double>(const double*, int64_t, const Window&,
                                    const Deformation<double>&, int64_t, int64_t, double*,
                                    util::ThreadPool&);

}  // namespace bough::kernels
