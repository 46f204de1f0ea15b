// ConvTranspose: the adjoint of Conv. X (N x C x D1..Dn), W (C x M/group x k1..kn), optional
// bias B (M). The output size is s*(in-1) + output_padding + (k-1)*d + 1 - pads, unless
// output_shape (or auto_pad SAME_*, giving in*s) fixes it and the padding follows from it:
// total = s*(in-1) + output_padding + (k-1)*d + 1 - out, split with the larger half at the
// end for SAME_UPPER and at the start otherwise. Computed as Wᵀ·X per group, added back into
// the image by col2im. float16/bfloat16 are computed in float.
#include <algorithm>
#include <array>

#include "kernels/conv_im2col.h"
#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "kernels/scratch.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/prepared_filter.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace conv_transpose_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

struct Attrs {
  kernels::WindowAttrs window;
  std::vector<int64_t> output_padding, output_shape;
  int64_t groups = 1;
};

// The window of the equivalent convolution: its image is the output Y, its positions the
// elements of X.
kernels::Window transposed_window(const Attrs& a, std::span<const int64_t> in,
                                  std::span<const int64_t> kernel) {
  const size_t rank = in.size();
  kernels::WindowAttrs wa = a.window;
  if (!wa.kernel.empty() &&
      !std::equal(wa.kernel.begin(), wa.kernel.end(), kernel.begin(), kernel.end()))
    bad("kernel_shape does not match the weights' shape " + shape_string(kernel));
  kernels::check_window_lists(wa, rank);
  std::vector<int64_t> adj = a.output_padding;
  if (adj.empty()) adj.assign(rank, 0);
  if (adj.size() != rank) bad("output_padding does not match the spatial rank");
  std::vector<int64_t> shape = a.output_shape;
  if (shape.size() == rank + 2) shape.erase(shape.begin(), shape.begin() + 2);
  if (!shape.empty() && shape.size() != rank) bad("output_shape does not match the spatial rank");
  const bool same =
      wa.auto_pad == kernels::AutoPad::SameUpper || wa.auto_pad == kernels::AutoPad::SameLower;
  kernels::Window w;
  w.out.assign(in.begin(), in.end());
  w.kernel.assign(kernel.begin(), kernel.end());
  w.stride = wa.strides;
  w.dilation = wa.dilations;
  w.in.resize(rank);
  w.pad_begin.resize(rank);
  w.pad_end.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (kernel[d] < 1) bad("kernel dimensions must be positive");
    const int64_t natural =
        w.stride[d] * (in[d] - 1) + adj[d] + (kernel[d] - 1) * w.dilation[d] + 1;
    if (!shape.empty() || same) {
      const int64_t out = shape.empty() ? in[d] * w.stride[d] : shape[d];
      const int64_t total = natural - out;
      const int64_t half = floor_half(total);
      w.pad_begin[d] = wa.auto_pad == kernels::AutoPad::SameUpper ? half : total - half;
      w.pad_end[d] = total - w.pad_begin[d];
      w.in[d] = out;
    } else {
      if (wa.auto_pad == kernels::AutoPad::Valid) wa.pads.assign(2 * rank, 0);
      w.pad_begin[d] = wa.pads[d];
      w.pad_end[d] = wa.pads[rank + d];
      w.in[d] = natural - w.pad_begin[d] - w.pad_end[d];
    }
    if (w.in[d] < 1) bad("the output would be empty");
  }
  return w;
}

// Elements of the column matrix built at once; larger inputs are done in column tiles. 1 MiB,
// so that the tile stays in cache from the product that writes it to col2im that reads it
// (det's ConvTranspose 24 -> 24 2x2/2 onto 160x240: 0.82-0.93 ms with 32 MiB tiles,
// 0.63-0.69 with these, docs/bench/cnn.md), but at least kMinTileColumns positions wide, so
// that each product keeps a width worth packing its operands for.
constexpr int64_t kColBudget = int64_t{1} << 18;
constexpr int64_t kMinTileColumns = 256;

// W (C x M/group x k...) as the products read it: Wᵀ per group, (M/group*K x C/group), groups
// back to back. Undefined when W's channels do not split into `groups`.
Tensor filter_layout(const Tensor& w, int64_t groups) {
  if (w.rank() < 3 || w.dim(0) % groups != 0) return Tensor();
  const int64_t cg = w.dim(0) / groups, rest = w.numel() / std::max<int64_t>(1, w.dim(0));
  const std::array<int64_t, 3> perm{0, 2, 1};
  return kernels::transpose(w.reshaped(Dims{groups, cg, rest}), perm);
}

// `wt` is W in filter_layout, `mg` W's dim 1.
template <typename T>
Tensor conv_transpose(const Tensor& x, const Tensor& wt, int64_t mg, const Tensor* b,
                      const kernels::Window& win, int64_t groups, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), C = x.dim(1), cg = C / groups, M = mg * groups;
  const int64_t K = win.kernel_numel(), P = win.out_numel(), out_numel = win.in_numel();
  const int64_t tile = std::min(
      std::max<int64_t>(P, 1), std::max(kColBudget / std::max<int64_t>(1, M * K), kMinTileColumns));
  std::vector<int64_t> a_off(static_cast<size_t>(groups)), b_off(static_cast<size_t>(groups));
  // From the tensor allocator's cache, not initialized (a std::vector would be zeroed, and
  // past malloc's mmap threshold mapped and faulted in, on every run: kernels/scratch.h).
  kernels::Scratch<T> col_room, xt_room;
  T* const col = col_room.get(static_cast<size_t>(M * K * tile));
  T* const xt = tile < P ? xt_room.get(static_cast<size_t>(C * tile)) : nullptr;
  Dims shape{N, M};
  for (int64_t o : win.in) shape.push_back(o);
  const bool tiled = kernels::window_tiles_image(win);
  const T* bias = b ? b->data<T>() : nullptr;
  Tensor y = tiled ? Tensor(x.type(), shape) : Tensor::zeros(x.type(), shape);
  for (int64_t n = 0; n < N; ++n) {
    const T* xn = x.data<T>() + n * C * P;
    T* yn = y.data<T>() + n * M * out_numel;
    for (int64_t p0 = 0; p0 < P; p0 += tile) {
      const int64_t p1 = std::min(P, p0 + tile), cols = p1 - p0;
      const T* src = xn;
      if (cols != P) {  // the tile's columns of X, contiguous
        for (int64_t c = 0; c < C; ++c) std::copy_n(xn + c * P + p0, cols, xt + c * cols);
        src = xt;
      }
      for (int64_t g = 0; g < groups; ++g) {
        a_off[static_cast<size_t>(g)] = g * mg * K * cg;
        b_off[static_cast<size_t>(g)] = g * cg * cols;
      }
      kernels::batched_matmul<T>(wt.data<T>(), src, col, a_off, b_off, mg * K, cg, cols, pool);
      if (tiled) {
        kernels::col2im_tiled(col, M, win, p0, p1, bias, yn, pool);
      } else {
        kernels::col2im_add(col, M, win, p0, p1, yn, pool);
      }
    }
    if (!bias || tiled) continue;
    for (int64_t m = 0; m < M; ++m)
      for (int64_t p = 0; p < out_numel; ++p) yn[m * out_numel + p] += bias[m];
  }
  return y;
}

class ConvTranspose : public Kernel {
 public:
  ConvTranspose(const BuildContext& ctx, Attrs attrs)
      : a_(std::move(attrs)),
        prepared_(
            prepare_filter(ctx, [&](const Tensor& w) { return filter_layout(w, a_.groups); })) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (prepared_) {
      const kernels::Window win = check(x, filter_info(*prepared_));
      const int64_t mg = prepared_->w_shape[1];
      io.set_output(
          0, prepared_->apply(x, "ConvTranspose",
                              [&](auto tag, const Tensor& xc, const Tensor& wt, const Tensor* b) {
                                using T = typename decltype(tag)::type;
                                return conv_transpose<T>(xc, wt, mg, b, win, a_.groups, io.pool());
                              }));
      return;
    }
    const Tensor& w = io.input(1);
    const Tensor* b = io.has_input(2) ? &io.input(2) : nullptr;
    const kernels::Window win = check(x, filter_info(w, b));
    io.set_output(0, compute(x, w, b, win, io.pool()));
  }

 private:
  kernels::Window check(const Tensor& x, const FilterInfo& f) const {
    const Dims& ws = f.w_shape;
    check_filter_types(x, f, "ConvTranspose");
    if (x.rank() < 3 || ws.size() != x.rank())
      bad("ConvTranspose shapes " + shape_string(x.shape()) + " and " + shape_string(ws) +
          " do not fit");
    if (x.dim(1) != ws[0] || x.dim(1) % a_.groups != 0)
      bad("ConvTranspose's X has " + std::to_string(x.dim(1)) + " channels, W expects " +
          std::to_string(ws[0]) + " in " + std::to_string(a_.groups) + " groups");
    if (f.b_shape && (f.b_shape->size() != 1 || (*f.b_shape)[0] != ws[1] * a_.groups))
      bad("ConvTranspose's B must have shape [" + std::to_string(ws[1] * a_.groups) + "]");
    const std::span<const int64_t> xs = x.shape(), wsp = ws;
    return transposed_window(a_, xs.subspan(2), wsp.subspan(2));
  }

  Tensor compute(const Tensor& x, const Tensor& w, const Tensor* b, const kernels::Window& win,
                 util::ThreadPool& pool) const {
    auto convolve = [&](const Tensor& x, const Tensor& w, const Tensor* b) {
      return kernels::visit_float(x.type(), "ConvTranspose", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return conv_transpose<T>(x, filter_layout(w, a_.groups), w.dim(1), b, win, a_.groups, pool);
      });
    };
    return kernels::through_float(convolve, x, w, b);
  }

  Attrs a_;
  std::unique_ptr<const PreparedFilter> prepared_;  // null: W and B read on every run
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  Attrs a;
  a.window = read_window_attrs(ctx);
  a.output_padding = ctx.attr_ints("output_padding");
  a.output_shape = ctx.attr_ints("output_shape");
  a.groups = ctx.attr_int("group", 1);
  if (a.groups < 1) ctx.invalid("group must be positive");
  return std::make_unique<ConvTranspose>(ctx, std::move(a));
}

// Y (N, W[1] * group, out...): output_shape when given, else in * stride with auto_pad
// SAME_*, else the natural size minus the pads.
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  const ir::Shape& w = ctx.input_shape(1);
  if (!x.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), x);
  const size_t rank = conv_spatial_rank(ctx, x, w);
  const int64_t group = ctx.attr_int("group", 1);
  if (group < 1) ctx.invalid("group must be positive");
  if (w.rank_known) same_dim(ctx, x.dims[1], w.dims[0], "input channels and the weights' dim 0");
  kernels::WindowAttrs wa = read_window_attrs(ctx);
  fill_window_list(ctx, wa.strides, rank, 1, "strides");
  fill_window_list(ctx, wa.dilations, rank, 1, "dilations");
  fill_window_list(ctx, wa.pads, 2 * rank, 0, "pads");
  std::vector<int64_t> adj = ctx.attr_ints("output_padding");
  fill_window_list(ctx, adj, rank, 0, "output_padding");
  std::vector<int64_t> shape = ctx.attr_ints("output_shape");
  if (shape.size() == rank + 2) shape.erase(shape.begin(), shape.begin() + 2);
  if (!shape.empty()) fill_window_list(ctx, shape, rank, 0, "output_shape");
  if (!wa.kernel.empty()) fill_window_list(ctx, wa.kernel, rank, 0, "kernel_shape");
  const bool same =
      wa.auto_pad == kernels::AutoPad::SameUpper || wa.auto_pad == kernels::AutoPad::SameLower;
  if (wa.auto_pad == kernels::AutoPad::Valid) wa.pads.assign(2 * rank, 0);
  std::vector<ir::Dim> dims{x.dims[0],
                            w.rank_known ? mul_dim(w.dims[1], group) : ir::Dim::unknown()};
  for (size_t d = 0; d < rank; ++d) {
    const ir::Dim& in = x.dims[2 + d];
    std::optional<int64_t> k;
    if (!wa.kernel.empty())
      k = wa.kernel[d];
    else if (w.rank_known)
      k = dim_value(w.dims[2 + d]);
    if (!shape.empty()) {
      dims.push_back(ir::Dim::known(shape[d]));
    } else if (same) {
      dims.push_back(mul_dim(in, wa.strides[d]));
    } else if (in.is_known() && k) {
      const int64_t out = wa.strides[d] * (in.value - 1) + adj[d] + (*k - 1) * wa.dilations[d] + 1 -
                          wa.pads[d] - wa.pads[rank + d];
      if (out < 1) ctx.invalid("the output would be empty");
      dims.push_back(ir::Dim::known(out));
    } else {
      dims.push_back(ir::Dim::unknown());
    }
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, B?: T -> Y: T; T = floats; auto_pad: string = NOTSET, "
     "dilations: ints?, group: int = 1, kernel_shape: ints?, output_padding: "
     "ints?, output_shape: ints?, pads: ints?, strides: ints?"},
    {11,
     "X: T, W: T, B?: T -> Y: T; T = floats; auto_pad: string = NOTSET, "
     "dilations: ints?, group: int = 1, kernel_shape: ints?, output_padding: "
     "ints?, output_shape: ints?, pads: ints?, strides: ints?"},
    {22,
     "X: T, W: T, B?: T -> Y: T; T = floats bfloat16; auto_pad: string = NOTSET, dilations: "
     "ints?, group: int = 1, kernel_shape: ints?, output_padding: ints?, output_shape: ints?, "
     "pads: ints?, strides: ints?"}};

}  // namespace conv_transpose_op
}  // namespace

OpDef def_ConvTranspose() {
  using namespace conv_transpose_op;
  return def_from_rows("", "ConvTranspose", make, infer, kRows);
}

}  // namespace bough::ops
