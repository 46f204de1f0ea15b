#include "kernels/resample_repeat.h"

#include <cstring>

#include "kernels/elementwise_loops.h"

namespace bough::kernels {

namespace {

// What resample() does with axis d: 0 when it leaves it as it is, else the whole repeat r
// when its taps map every output o to input o / r, else -1.
int64_t repeats_of(const Tensor& x, const ResampleSpec& spec, size_t d,
                   std::span<const int64_t> out, std::span<const double> scales,
                   std::span<const double> roi) {
  const size_t rank = x.rank();
  const double r0 = roi.empty() ? 0.0 : roi[d], r1 = roi.empty() ? 1.0 : roi[rank + d];
  const bool cropped = spec.coord == CoordMode::TfCropAndResize && (r0 != 0 || r1 != 1);
  const int64_t in = x.dim(d);
  if (out[d] == in && scales[d] == 1 && !cropped) return 0;
  if (in == 0 || out[d] == 0 || out[d] % in != 0) return -1;
  const int64_t r = out[d] / in;
  const ResampleAxis a = make_resample_axis(spec, in, out[d], scales[d], r0, r1);
  for (int64_t o = 0; o < out[d]; ++o) {
    const auto s = static_cast<size_t>(a.start[static_cast<size_t>(o)]);
    if (a.start[static_cast<size_t>(o) + 1] != a.start[static_cast<size_t>(o)] + 1 ||
        a.index[s] != o / r || a.weight[s] != 1.0 ||
        (!a.outside.empty() && a.outside[static_cast<size_t>(o)]))
      return -1;
  }
  return r;
}

// One output row: the W elements of `src` each repeated rw times.
template <typename T>
void repeat_row(const T* src, T* dst, int64_t W, int64_t rw) {
  if (rw == 2) {
    for (int64_t w = 0; w < W; ++w) dst[2 * w] = dst[2 * w + 1] = src[w];
  } else {
    for (int64_t w = 0; w < W; ++w)
      for (int64_t j = 0; j < rw; ++j) dst[w * rw + j] = src[w];
  }
}

template <typename T>
void repeat_rows(const T* x, T* y, int64_t rows, int64_t W, int64_t rh, int64_t rw,
                 util::ThreadPool& pool) {
  const int64_t OW = W * rw;
  pool.parallel_for(rows, util::grain_for(OW * rh * kElementWork / 4), [&](int64_t s, int64_t e) {
    for (int64_t row = s; row < e; ++row) {
      T* first = y + row * rh * OW;
      if (rw == 1)
        std::memcpy(first, x + row * W, static_cast<size_t>(W) * sizeof(T));
      else
        repeat_row(x + row * W, first, W, rw);
      for (int64_t k = 1; k < rh; ++k)
        std::memcpy(first + k * OW, first, static_cast<size_t>(OW) * sizeof(T));
    }
  });
}

}  // namespace

std::optional<Tensor> resample_by_repeats(const Tensor& x, const ResampleSpec& spec,
                                          std::span<const int64_t> out,
                                          std::span<const double> scales,
                                          std::span<const double> roi, util::ThreadPool& pool) {
  const size_t rank = x.rank();
  const int bits = elem_bits(x.type());
  if (spec.mode != Interp::Nearest || rank == 0 || x.type() == ElemType::String || bits % 8 != 0 ||
      x.numel() == 0)
    return std::nullopt;
  for (size_t d = 0; d + 2 < rank; ++d)
    if (repeats_of(x, spec, d, out, scales, roi) != 0) return std::nullopt;
  const int64_t rw = repeats_of(x, spec, rank - 1, out, scales, roi);
  const int64_t rh = rank >= 2 ? repeats_of(x, spec, rank - 2, out, scales, roi) : 0;
  if (rw < 0 || rh < 0 || (rw == 0 && rh == 0)) return std::nullopt;
  Tensor y(x.type(), Dims(out));
  const int64_t W = x.dim(rank - 1), rows = x.numel() / W;
  const int64_t h = std::max<int64_t>(rh, 1), w = std::max<int64_t>(rw, 1);
  switch (bits) {
    case 8:
      repeat_rows(static_cast<const uint8_t*>(x.raw()), static_cast<uint8_t*>(y.raw()), rows, W, h,
                  w, pool);
      break;
    case 16:
      repeat_rows(static_cast<const uint16_t*>(x.raw()), static_cast<uint16_t*>(y.raw()), rows, W,
                  h, w, pool);
      break;
    case 32:
      repeat_rows(static_cast<const uint32_t*>(x.raw()), static_cast<uint32_t*>(y.raw()), rows, W,
                  h, w, pool);
      break;
    case 64:
      repeat_rows(static_cast<const uint64_t*>(x.raw()), static_cast<uint64_t*>(y.raw()), rows, W,
                  h, w, pool);
      break;
    default:
      return std::nullopt;
  }
  return y;
}

Tensor resample_with_shortcuts(const Tensor& x, const ResampleSpec& spec,
                               std::span<const int64_t> out, std::span<const double> scales,
                               std::span<const double> roi, double extrapolation,
                               util::ThreadPool& pool) {
  if (std::optional<Tensor> y = resample_by_repeats(x, spec, out, scales, roi, pool)) return *y;
  return resample(x, spec, out, scales, roi, extrapolation, pool);
}

}  // namespace bough::kernels
