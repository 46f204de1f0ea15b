// DeformConv: a Conv whose kernel taps read the image at their regular places moved by
// per-position offsets (N, offset_group * K * rank, out...), sampled multilinearly with 0
// outside the image, and scaled by an optional mask (N, offset_group * K, out...); K is the
// kernel's element count. Input channels share offsets by offset_group, independently of the
// convolution's group. The column matrix of deformed samples then goes through the same
// grouped matrix products as Conv's im2col (kernels/conv_columns.h). float16/bfloat16 are
// computed in float.
#include <optional>
#include <string>

#include "kernels/conv_columns.h"
#include "kernels/deform_im2col.h"
#include "kernels/dispatch.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace deform_conv_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// Dims (N, channels, out...).
Dims per_position(int64_t n, int64_t channels, const kernels::Window& win) {
  Dims d{n, channels};
  for (int64_t o : win.out) d.push_back(o);
  return d;
}

template <typename T>
Tensor deform_conv(const Tensor& x, const Tensor& w, const Tensor& offset, const Tensor* b,
                   const Tensor* mask, const kernels::Window& win, int64_t groups,
                   int64_t offset_groups, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), C = x.dim(1), M = w.dim(0);
  const int64_t K = win.kernel_numel(), P = win.out_numel(), r = static_cast<int64_t>(win.rank());
  Tensor y(x.type(), per_position(N, M, win));
  kernels::Scratch<T> col, tile_out;
  for (int64_t n = 0; n < N; ++n) {
    const T* xn = x.data<T>() + n * C * win.in_numel();
    const kernels::Deformation<T> d{offset.data<T>() + n * offset_groups * K * r * P,
                                    mask ? mask->data<T>() + n * offset_groups * K * P : nullptr,
                                    offset_groups};
    T* yn = y.data<T>() + n * M * P;
    kernels::convolve_columns<T>(
        w.data<T>(), yn, C, M, K, P, groups,
        [&](int64_t p0, int64_t p1, T* cols) {
          kernels::deform_im2col(xn, C, win, d, p0, p1, cols, pool);
        },
        col, tile_out, pool);
    if (b) kernels::add_channel_bias(yn, b->data<T>(), M, P, pool);
  }
  return y;
}

class DeformConv : public Kernel {
 public:
  explicit DeformConv(const BuildContext& ctx)
      : attrs_(read_window_attrs(ctx)),
        groups_(ctx.attr_int("group", 1)),
        offset_groups_(ctx.attr_int("offset_group", 1)) {
    if (groups_ < 1) ctx.invalid("group must be positive");
    if (offset_groups_ < 1) ctx.invalid("offset_group must be positive");
  }

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& w = io.input(1);
    const Tensor& offset = io.input(2);
    const Tensor* b = io.has_input(3) ? &io.input(3) : nullptr;
    const Tensor* mask = io.has_input(4) ? &io.input(4) : nullptr;
    const kernels::Window win = check(x, w, offset, b, mask);
    auto compute = [&](const Tensor& x, const Tensor& w, const Tensor& offset, const Tensor* b,
                       const Tensor* mask) {
      return kernels::visit_float(x.type(), "DeformConv", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return deform_conv<T>(x, w, offset, b, mask, win, groups_, offset_groups_, io.pool());
      });
    };
    io.set_output(0, kernels::through_float(compute, x, w, offset, b, mask));
  }

 private:
  kernels::Window check(const Tensor& x, const Tensor& w, const Tensor& offset, const Tensor* b,
                        const Tensor* mask) const {
    for (const Tensor* t : {&w, &offset, b, mask})
      if (t && t->type() != x.type()) bad("DeformConv inputs have different element types");
    if (x.rank() < 3)
      bad("DeformConv's X must have at least 3 dimensions, got " + shape_string(x.shape()));
    if (w.rank() != x.rank())
      bad("DeformConv's W " + shape_string(w.shape()) + " does not match X " +
          shape_string(x.shape()));
    const int64_t C = x.dim(1), M = w.dim(0);
    if (C != w.dim(1) * groups_)
      bad("DeformConv's X has " + std::to_string(C) + " channels, W expects " +
          std::to_string(w.dim(1) * groups_));
    if (M % groups_ != 0) bad("DeformConv's output channels are not divisible by group");
    if (C % offset_groups_ != 0)
      bad("DeformConv's " + std::to_string(C) +
          " input channels are not divisible by offset_group " + std::to_string(offset_groups_));
    if (b && (b->rank() != 1 || b->dim(0) != M))
      bad("DeformConv's B must have shape [" + std::to_string(M) + "]");
    const std::span<const int64_t> xs = x.shape(), ws = w.shape();
    if (!attrs_.kernel.empty() &&
        !std::equal(attrs_.kernel.begin(), attrs_.kernel.end(), ws.begin() + 2, ws.end()))
      bad("DeformConv's kernel_shape does not match W " + shape_string(w.shape()));
    const kernels::Window win = kernels::resolve_window(attrs_, xs.subspan(2), ws.subspan(2));
    const int64_t taps = offset_groups_ * win.kernel_numel();
    const Dims want_offset = per_position(x.dim(0), taps * static_cast<int64_t>(win.rank()), win);
    if (offset.shape() != want_offset)
      bad("DeformConv's offset must have shape " + shape_string(want_offset) + ", got " +
          shape_string(offset.shape()));
    if (mask && mask->shape() != per_position(x.dim(0), taps, win))
      bad("DeformConv's mask must have shape " + shape_string(per_position(x.dim(0), taps, win)) +
          ", got " + shape_string(mask->shape()));
    return win;
  }

  kernels::WindowAttrs attrs_;
  int64_t groups_, offset_groups_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<DeformConv>(ctx); }

// Y as Conv's; offset and mask, where their shapes are known, must be (N, taps * rank, out...)
// and (N, taps, out...) with taps = offset_group * the kernel's element count.
void infer(InferContext& ctx) {
  const ir::Shape y = conv_output_shape(ctx);
  const int64_t offset_group = ctx.attr_int("offset_group", 1);
  if (offset_group < 1) ctx.invalid("offset_group must be positive");
  const ir::Shape& w = ctx.input_shape(1);
  if (y.rank_known && w.rank_known) {
    const size_t r = y.dims.size() - 2;
    std::optional<int64_t> taps = offset_group;
    for (size_t d = 0; d < r; ++d)
      taps = w.dims[2 + d].is_known() && taps ? std::optional(*taps * w.dims[2 + d].value)
                                              : std::nullopt;
    auto check = [&](size_t input, std::optional<int64_t> channels, const char* what) {
      const ir::Shape& s = ctx.input_shape(input);
      if (!ctx.has_input(input) || !s.rank_known) return;
      if (s.dims.size() != y.dims.size())
        ctx.invalid(std::string(what) + " must have rank " + std::to_string(y.dims.size()));
      same_dim(ctx, s.dims[0], y.dims[0], (std::string(what) + "'s batch and X's").c_str());
      if (channels)
        same_dim(ctx, s.dims[1], ir::Dim::known(*channels),
                 (std::string(what) + "'s channels and offset_group * kernel taps").c_str());
      for (size_t d = 2; d < y.dims.size(); ++d)
        same_dim(ctx, s.dims[d], y.dims[d], (std::string(what) + "'s dims and Y's").c_str());
    };
    check(2, taps ? std::optional(*taps * static_cast<int64_t>(r)) : std::nullopt, "offset");
    check(4, taps, "mask");
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), y);
}

constexpr SignatureText kRows[] = {
    {19,
     "X: T, W: T, offset: T, B?: T, mask?: T -> Y: T; T = floats; dilations: ints?, "
     "group: int = 1, kernel_shape: ints?, offset_group: int = 1, pads: ints?, "
     "strides: ints?"},
    {22,
     "X: T, W: T, offset: T, B?: T, mask?: T -> Y: T; T = floats bfloat16; dilations: "
     "ints?, group: int = 1, kernel_shape: ints?, offset_group: int = 1, pads: ints?, "
     "strides: ints?"}};

}  // namespace deform_conv_op
}  // namespace

OpDef def_DeformConv() {
  using namespace deform_conv_op;
  return def_from_rows("", "DeformConv", make, infer, kRows);
}

}  // namespace bough::ops
