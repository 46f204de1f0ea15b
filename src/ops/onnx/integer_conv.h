// The integer convolution ConvInteger and QLinearConv share: (x - x_zero_point) convolved with
// (w - w_zero_point), w_zero_point a scalar or one value per output channel, x_zero_point a
// scalar. Padding holds x_zero_point, i.e. zero after the shift. The shifted values and the
// sums come out exact: im2col and float matrix products over chunks short enough that float
// holds every partial sum exactly, the chunks added in double (integer_conv.cc); each
// operator then turns the sums into its own output.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "bough/tensor.h"
#include "kernels/conv_window.h"
#include "ops/registry.h"

namespace bough::ops::integer_conv {

// x - zero_point (in [-255, 255], exact in float), x int8 or uint8 and zero_point (null: 0) of x's
// type; with `per_channel` (weights) the zero point may hold one value per index of dim 0. `op` and
// `name` (the zero point's input name) are for messages.
std::vector<float> shifted(const char* op, const Tensor& x, const Tensor* zero_point,
                           bool per_channel, const char* name);

// The weights w - w_zero_point and w's shape. Each output channel's C / group * kernel values
// are cut into chunks of the length one exact float product may sum; `chunks` holds chunk 0
// of every output channel (an M x length matrix), then chunk 1, and so on.
struct Filter {
  Dims shape;
  std::vector<float> chunks;
};

// One convolution's geometry: x (N, C, spatial...) by w (M, C / group, kernel...).
class Conv {
 public:
  // Throws Error(BadInput) naming `op` when the shapes do not fit each other or the window.
  Conv(const char* op, const Dims& x_shape, const Dims& w_shape, const kernels::WindowAttrs& attrs,
       int64_t groups);

  // (N, M, out...)
  const Dims& output_shape() const { return out_shape_; }
  int64_t positions() const { return window_.out_numel(); }  // P: output positions per image

  // The sums for shifted x (x_shape's elements) and filter w, handed over tile by tile:
  // store(n, p0, cols, sums) with sums [M, cols] holding output channels m at positions
  // p0 .. p0 + cols of image n.
  using TileFn = std::function<void(int64_t n, int64_t p0, int64_t cols, const double* sums)>;
  void run(const std::vector<float>& x, const Filter& w, util::ThreadPool& pool,
           const TileFn& store) const;

 private:
  kernels::Window window_;
  Dims out_shape_;
  int64_t batch_ = 0, channels_ = 0, out_channels_ = 0, groups_ = 1;
};

// What a node reads once at build time: the window attributes, the group count, and the
// filter when w (input `w_input`) and its zero point (input `zp_input`, or absent) are
// constant, so that a run reads neither.
class Setup {
 public:
  Setup(const BuildContext& ctx, const char* op, size_t w_input, size_t zp_input);

  // The filter of a run: the prepared one, or one made from the inputs (kept in `scratch`).
  const Filter& filter(const KernelIO& io, Filter& scratch) const;
  // The geometry of x by the filter `w`.
  Conv conv(const Dims& x_shape, const Filter& w) const {
    return {op_, x_shape, w.shape, attrs_, groups_};
  }

 private:
  const char* op_;
  size_t w_input_, zp_input_;
  kernels::WindowAttrs attrs_;
  int64_t groups_;
  std::unique_ptr<const Filter> prepared_;  // null: w and its zero point read per run
};

}  // namespace bough::ops::integer_conv
