// Separable resampling for Resize and Upsample: along one axis at a time, each output is a
// weighted sum of input elements (a 1-D convolution with the interpolation filter). The
// taps follow the ONNX reference: the source coordinate from the coordinate transformation
// mode, then nearest / linear / cubic weights (optionally stretched for antialiasing), with
// indices past the edges clamped to the edge.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "bough/tensor.h"
#include "util/thread_pool.h"

namespace bough::kernels {

enum class Interp { Nearest, Linear, Cubic };
enum class CoordMode {
  HalfPixel,
  HalfPixelSymmetric,
  PytorchHalfPixel,
  AlignCorners,
  Asymmetric,
  TfHalfPixelForNN,  // Resize-11 only: (x + 0.5) / scale, no shift back
  TfCropAndResize
};
// Rounding of the nearest mode; Simple (Resize-10) floors when upsampling and ceils when
// downsampling.
enum class NearestRound { PreferFloor, PreferCeil, Floor, Ceil, Simple };

struct ResampleSpec {
  Interp mode = Interp::Nearest;
  CoordMode coord = CoordMode::HalfPixel;
  NearestRound nearest = NearestRound::PreferFloor;
  double cubic_a = -0.75;
  bool exclude_outside = false;
  bool antialias = false;
};

// The taps of one axis: output o reads index[start[o] .. start[o+1]) with the matching
// weights, or is the extrapolation value when outside[o] (tf_crop_and_resize).
struct ResampleAxis {
  int64_t in = 0, out = 0;
  std::vector<int64_t> start, index;
  std::vector<double> weight;
  std::vector<uint8_t> outside;
};

// Taps for an axis of `in` elements resized to `out` by `scale` (roi_start / roi_end only
// matter for tf_crop_and_resize). `in` must be positive.
ResampleAxis make_resample_axis(const ResampleSpec& spec, int64_t in, int64_t out, double scale,
                                double roi_start, double roi_end);

// x with dimension `axis` resampled by `a`. Nearest taps (one of weight 1) copy elements of
// any byte-aligned type or strings; other taps need a numeric type, summed in double (float
// for float, float16, bfloat16) and converted back.
Tensor resample_axis(const Tensor& x, size_t axis, const ResampleAxis& a, double extrapolation,
                     util::ThreadPool& pool);

// x resampled to shape `out` with per-dimension `scales`; `roi` holds every dimension's start
// then every end (empty: 0 and 1). Dimensions that stay as they are are skipped.
Tensor resample(const Tensor& x, const ResampleSpec& spec, std::span<const int64_t> out,
                std::span<const double> scales, std::span<const double> roi, double extrapolation,
                util::ThreadPool& pool);

}  // namespace bough::kernels
