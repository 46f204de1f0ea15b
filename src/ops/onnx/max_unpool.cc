// MaxUnpool: scatters X (N x C x D1..Dn) into a zero tensor at the flat indices I (as
// MaxPool's Indices output gives them). The output shape is the optional output_shape input,
// else (N, C, (in - 1) * stride + kernel - pad_begin - pad_end ...); a larger output_shape
// pads that unpooled tensor with zeros at the end of each dimension.
#include "kernels/conv_window.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace max_unpool_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// The offset in `to` of the element at offset `i` in `from` (same coordinates).
int64_t place(int64_t i, const Dims& from, const Dims& to) {
  if (from == to) return i;
  int64_t off = 0, stride = 1;
  for (size_t d = from.size(); d-- > 0;) {
    off += (i % from[d]) * stride;
    i /= from[d];
    stride *= to[d];
  }
  return off;
}

class MaxUnpool : public Kernel {
 public:
  explicit MaxUnpool(kernels::WindowAttrs attrs) : attrs_(std::move(attrs)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& ind = io.input(1);
    if (x.rank() < 3) bad("MaxUnpool needs an input of rank 3 or more");
    if (ind.shape() != x.shape()) bad("MaxUnpool's I must have X's shape");
    if (ind.type() != ElemType::Int64) bad("MaxUnpool's I must be int64");
    const Dims unpooled = default_shape(x);
    const Dims shape =
        io.has_input(2) ? Dims(kernels::read_shape_arg(io.input(2), "output_shape")) : unpooled;
    if (shape.size() != x.rank())
      bad("MaxUnpool's output_shape " + shape_string(shape) + " does not fit X " +
          shape_string(x.shape()));
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] < unpooled[d])
        bad("MaxUnpool's output_shape " + shape_string(shape) + " is smaller than " +
            shape_string(unpooled));
    const int64_t total = unpooled.numel();
    const int64_t* at = ind.data<int64_t>();
    for (int64_t i = 0; i < ind.numel(); ++i)
      if (at[i] < 0 || at[i] >= total)
        bad("MaxUnpool index " + std::to_string(at[i]) + " is outside the output");
    Tensor y = Tensor::zeros(x.type(), shape);
    kernels::visit_storage(x.type(), "MaxUnpool", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(y);
      for (int64_t i = 0; i < x.numel(); ++i) dst[place(at[i], unpooled, shape)] = src[i];
    });
    io.set_output(0, std::move(y));
  }

 private:
  Dims default_shape(const Tensor& x) const {
    const size_t rank = x.rank() - 2;
    kernels::WindowAttrs a = attrs_;
    if (a.kernel.size() != rank) bad("kernel_shape does not match the spatial rank");
    kernels::check_window_lists(a, rank);
    Dims shape{x.dim(0), x.dim(1)};
    for (size_t d = 0; d < rank; ++d) {
      shape.push_back((x.dim(d + 2) - 1) * a.strides[d] + a.kernel[d] - a.pads[d] -
                      a.pads[rank + d]);
      if (shape[d + 2] < 0) bad("MaxUnpool's output would have a negative dimension");
    }
    return shape;
  }

  kernels::WindowAttrs attrs_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  kernels::WindowAttrs attrs = read_window_attrs(ctx);
  if (attrs.kernel.empty()) ctx.invalid("MaxUnpool needs kernel_shape");
  return std::make_unique<MaxUnpool>(std::move(attrs));
}

// The output_shape input when known, else (N, C, (in - 1) * stride + kernel - pads ...).
void infer(InferContext& ctx) {
  const ir::Shape& x = ctx.input_shape(0);
  if (ctx.has_input(2)) {
    if (auto v = int_values(ctx, 2))
      return ctx.set_output_tensor(0, ctx.input_elem(0), known_shape(*v));
    const ir::Shape& s = ctx.input_shape(2);
    ir::Shape out = ir::Shape::unknown_rank();
    if (s.rank_known && s.dims.size() == 1 && s.dims[0].is_known())
      out = unknown_dims(static_cast<size_t>(s.dims[0].value));
    return ctx.set_output_tensor(0, ctx.input_elem(0), out);
  }
  if (!x.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), x);
  if (x.dims.size() < 3)
    ctx.invalid("the input needs rank 3 or more (N, C, spatial...), not " +
                std::to_string(x.dims.size()));
  const size_t rank = x.dims.size() - 2;
  kernels::WindowAttrs a = read_pool_attrs(ctx, "MaxUnpool");
  if (a.kernel.size() != rank) fill_window_list(ctx, a.kernel, rank, 0, "kernel_shape");
  fill_window_list(ctx, a.strides, rank, 1, "strides");
  fill_window_list(ctx, a.pads, 2 * rank, 0, "pads");
  std::vector<ir::Dim> dims{x.dims[0], x.dims[1]};
  for (size_t d = 0; d < rank; ++d) {
    const ir::Dim& in = x.dims[2 + d];
    if (!in.is_known()) {
      dims.push_back(ir::Dim::unknown());
      continue;
    }
    const int64_t out = (in.value - 1) * a.strides[d] + a.kernel[d] - a.pads[d] - a.pads[rank + d];
    if (out < 0) ctx.invalid("the output would have a negative dimension");
    dims.push_back(ir::Dim::known(out));
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {9,
     "X: T1, I: T2, output_shape?: T2 -> output: T1; T1 = floats, T2 = "
     "int64; kernel_shape: ints, pads: ints?, strides: ints?"},
    {11,
     "X: T1, I: T2, output_shape?: T2 -> output: T1; T1 = floats, T2 = "
     "int64; kernel_shape: ints, pads: ints?, strides: ints?"},
    {22,
     "X: T1, I: T2, output_shape?: T2 -> output: T1; T1 = floats bfloat16, "
     "T2 = int64; kernel_shape: ints, pads: ints?, strides: ints?"}};

}  // namespace max_unpool_op
}  // namespace

OpDef def_MaxUnpool() {
  using namespace max_unpool_op;
  return def_from_rows("", "MaxUnpool", make, infer, kRows);
}

}  // namespace bough::ops
