#include "kernels/conv_resample.h"

#include <algorithm>
#include <cmath>

#include "bough/error.h"
#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/elementwise_loops.h"

namespace bough::kernels {

namespace {

// The input coordinate of output index o, computed in float as ONNX Runtime does (exact
// halves decide nearest rounding); `width` is the unrounded output size scale * in, which
// align_corners and tf_crop_and_resize divide by as the ONNX reference does.
double source_coord(const ResampleSpec& s, int64_t o, int64_t in, int64_t out, double scale_d,
                    double roi0_d, double roi1_d) {
  using F = float;
  const F x = static_cast<F>(o), n = static_cast<F>(in), scale = static_cast<F>(scale_d);
  const F roi0 = static_cast<F>(roi0_d), roi1 = static_cast<F>(roi1_d);
  const F width = scale * n, half = 0.5f;
  switch (s.coord) {
    case CoordMode::HalfPixel:
      return (x + half) / scale - half;
    case CoordMode::HalfPixelSymmetric: {
      const F adjustment = static_cast<F>(out) / width;
      const F offset = n / 2 * (1 - adjustment);
      return offset + (x + half) / scale - half;
    }
    case CoordMode::PytorchHalfPixel:
      return out > 1 ? (x + half) / scale - half : -half;
    case CoordMode::AlignCorners:
      return width == 1 ? F(0) : x * (n - 1) / (width - 1);
    case CoordMode::Asymmetric:
      return x / scale;
    case CoordMode::TfHalfPixelForNN:
      return (x + half) / scale;
    case CoordMode::TfCropAndResize: {
      const F span = (roi1 - roi0) * (n - 1);
      return (width == 1 ? span / 2 : x * span / (width - 1)) + roi0 * (n - 1);
    }
  }
  return 0;
}

double cubic_weight(double x, double a) {
  x = std::abs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// Taps (offset from base, weight) of one output position; `ratio` in (0, 1] is the distance
// of the coordinate past base.
void filter_taps(const ResampleSpec& s, double ratio, double scale,
                 std::vector<std::pair<int64_t, double>>& taps) {
  taps.clear();
  if (s.mode == Interp::Nearest) {
    bool up = false;  // whether the nearer neighbour is base + 1
    switch (s.nearest) {
      case NearestRound::PreferFloor:
        up = ratio > 0.5;
        break;
      case NearestRound::PreferCeil:
        up = ratio >= 0.5;
        break;
      case NearestRound::Floor:
        up = false;
        break;
      case NearestRound::Ceil:
        up = true;
        break;
      case NearestRound::Simple:
        up = scale < 1;
        break;
    }
    if (ratio == 1) up = true;  // an integer coordinate is its own neighbour
    taps.emplace_back(up ? 1 : 0, 1.0);
    return;
  }
  const double f = s.antialias ? std::min(1.0, scale) : 1.0;  // filter stretch for antialias
  const double reach = s.mode == Interp::Linear ? 1.0 : 2.0;
  const int64_t first = static_cast<int64_t>(std::floor(-reach / f)) + 1;
  double sum = 0;
  for (int64_t i = first; i < 2 - first; ++i) {
    const double d = (static_cast<double>(i) - ratio) * f;
    const double w = s.mode == Interp::Linear ? std::clamp(1 - std::abs(d), 0.0, 1.0)
                                              : cubic_weight(d, s.cubic_a);
    taps.emplace_back(i, w);
    sum += w;
  }
  if (s.antialias && sum != 0)
    for (auto& t : taps) t.second /= sum;
}

}  // namespace

ResampleAxis make_resample_axis(const ResampleSpec& spec, int64_t in, int64_t out, double scale,
                                double roi_start, double roi_end) {
  ResampleAxis a;
  a.in = in;
  a.out = out;
  a.start.push_back(0);
  std::vector<std::pair<int64_t, double>> taps;
  for (int64_t o = 0; o < out; ++o) {
    const double x = source_coord(spec, o, in, out, scale, roi_start, roi_end);
    const bool outside =
        spec.coord == CoordMode::TfCropAndResize && (x < 0 || x > static_cast<double>(in - 1));
    a.outside.push_back(outside ? 1 : 0);
    if (!outside) {
      double base = std::floor(x), ratio = x - base;
      if (ratio == 0) {  // the reference takes the left neighbour's right side
        ratio = 1;
        base -= 1;
      }
      filter_taps(spec, ratio, scale, taps);
      const size_t first = a.index.size();
      double kept = 0;
      for (auto [off, w] : taps) {
        const int64_t i = static_cast<int64_t>(base) + off;
        if (spec.exclude_outside && (i < 0 || i >= in)) w = 0;
        a.index.push_back(std::clamp<int64_t>(i, 0, in - 1));
        a.weight.push_back(w);
        kept += w;
      }
      if (spec.exclude_outside && kept != 0)
        for (size_t t = first; t < a.weight.size(); ++t) a.weight[t] /= kept;
    }
    a.start.push_back(static_cast<int64_t>(a.index.size()));
  }
  return a;
}

namespace {

// Copies for one-tap, weight-1 axes: any storage type.
Tensor gather_axis(const Tensor& x, const Dims& shape, int64_t outer, int64_t inner,
                   const ResampleAxis& a, double extrapolation, util::ThreadPool& pool) {
  Tensor y(x.type(), shape);
  Tensor fill;
  if (std::find(a.outside.begin(), a.outside.end(), 1) != a.outside.end())
    fill = x.type() == ElemType::String
               ? Tensor(ElemType::String, Dims{})
               : cast(Tensor::from_vector<double>(ElemType::Double, Dims{}, {extrapolation}),
                      x.type());
  visit_storage(x.type(), "Resize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = elements<T>(x);
    T* dst = elements<T>(y);
    const int64_t grain = util::grain_for(inner * kElementWork);
    pool.parallel_for(outer * a.out, grain, [&](int64_t b, int64_t e) {
      for (int64_t r = b; r < e; ++r) {
        const int64_t n = r / a.out, o = r % a.out;
        T* d = dst + r * inner;
        if (a.outside[o]) {
          std::fill(d, d + inner, elements<T>(fill)[0]);
          continue;
        }
        const T* s = src + (n * a.in + a.index[a.start[o]]) * inner;
        std::copy(s, s + inner, d);
      }
    });
  });
  return y;
}

template <typename T>
void blend_axis(const T* src, T* dst, int64_t outer, int64_t inner, const ResampleAxis& a, T fill,
                util::ThreadPool& pool) {
  const std::vector<T> weight(a.weight.begin(), a.weight.end());
  if (inner == 1) {  // the last axis: one dot product per output, a row per work item
    const int64_t grain = util::grain_for(a.out * 4 * kElementWork);
    pool.parallel_for(outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t n = b; n < e; ++n) {
        const T* s = src + n * a.in;
        T* d = dst + n * a.out;
        for (int64_t o = 0; o < a.out; ++o) {
          T acc = 0;
          for (int64_t t = a.start[o]; t < a.start[o + 1]; ++t) acc += weight[t] * s[a.index[t]];
          d[o] = a.outside[o] ? fill : acc;
        }
      }
    });
    return;
  }
  const int64_t grain = util::grain_for(inner * 4 * kElementWork);
  pool.parallel_for(outer * a.out, grain, [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const int64_t n = r / a.out, o = r % a.out;
      T* d = dst + r * inner;
      if (a.outside[o]) {
        std::fill(d, d + inner, fill);
        continue;
      }
      std::fill(d, d + inner, T(0));
      for (int64_t t = a.start[o]; t < a.start[o + 1]; ++t) {
        const T w = weight[t];
        if (w == T(0)) continue;
        const T* s = src + (n * a.in + a.index[t]) * inner;
        for (int64_t i = 0; i < inner; ++i) d[i] += w * s[i];
      }
    }
  });
}

}  // namespace

Tensor resample_axis(const Tensor& x, size_t axis, const ResampleAxis& a, double extrapolation,
                     util::ThreadPool& pool) {
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < x.rank(); ++d) {
    if (d < axis) outer *= x.dim(d);
    if (d > axis) inner *= x.dim(d);
  }
  Dims shape = x.shape();
  shape[axis] = a.out;
  bool copies = true;
  for (int64_t o = 0; o < a.out && copies; ++o)
    copies = a.start[o + 1] - a.start[o] <= 1 && (a.outside[o] || a.weight[a.start[o]] == 1.0);
  if (copies) return gather_axis(x, shape, outer, inner, a, extrapolation, pool);
  const ElemType t = x.type();
  if (t == ElemType::String || t == ElemType::Bool || is_sub_byte(t))
    unsupported_type(t, "Resize (linear and cubic)");
  const ElemType ct =
      t == ElemType::Double || !is_float_type(t) ? ElemType::Double : ElemType::Float;
  const Tensor xc = cast(x, ct);
  Tensor y(ct, shape);
  visit_float(ct, "Resize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    blend_axis<T>(xc.data<T>(), y.data<T>(), outer, inner, a, static_cast<T>(extrapolation), pool);
  });
  return cast(y, t);
}

Tensor resample(const Tensor& x, const ResampleSpec& spec, std::span<const int64_t> out,
                std::span<const double> scales, std::span<const double> roi, double extrapolation,
                util::ThreadPool& pool) {
  const size_t rank = x.rank();
  Tensor y = x;
  for (size_t d = 0; d < rank; ++d) {
    const double r0 = roi.empty() ? 0.0 : roi[d], r1 = roi.empty() ? 1.0 : roi[rank + d];
    const bool cropped = spec.coord == CoordMode::TfCropAndResize && (r0 != 0 || r1 != 1);
    if (out[d] == x.dim(d) && scales[d] == 1 && !cropped) continue;
    if (x.dim(d) == 0 || out[d] == 0) {
      Dims shape = y.shape();
      shape[d] = out[d];
      y = Tensor::zeros(y.type(), shape);
      continue;
    }
    y = resample_axis(y, d, make_resample_axis(spec, x.dim(d), out[d], scales[d], r0, r1),
                      extrapolation, pool);
  }
  return y;
}

}  // namespace bough::kernels
