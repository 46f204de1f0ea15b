// Col2Im: the inverse of im2col. input (N x C*prod(block_shape) x L) holds, for each
// channel and block position, the values of the L sliding blocks over an image of
// image_shape; overlapping values are summed into Y (N x C x image_shape...). strides,
// dilations and pads place the blocks as a convolution's window would. Non-float types are
// computed in double, float16/bfloat16 in float.
#include "kernels/conv_im2col.h"
#include "kernels/shape_args.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/window_attrs.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace col2im_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

template <typename T>
Tensor col2im(const Tensor& x, const kernels::Window& w, int64_t C, util::ThreadPool& pool) {
  const int64_t N = x.dim(0), image = w.in_numel(), block = C * w.kernel_numel() * w.out_numel();
  Dims shape{N, C};
  for (int64_t d : w.in) shape.push_back(d);
  Tensor y = Tensor::zeros(x.type(), shape);
  for (int64_t n = 0; n < N; ++n)
    kernels::col2im_add(x.data<T>() + n * block, C, w, 0, w.out_numel(),
                        y.data<T>() + n * C * image, pool);
  return y;
}

class Col2Im : public Kernel {
 public:
  explicit Col2Im(kernels::WindowAttrs attrs) : attrs_(std::move(attrs)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const std::vector<int64_t> image = kernels::read_shape_arg(io.input(1), "image_shape");
    const std::vector<int64_t> block = kernels::read_shape_arg(io.input(2), "block_shape");
    if (x.rank() != 3) bad("Col2Im's input must be 3-D, got " + shape_string(x.shape()));
    if (image.size() != block.size() || image.empty())
      bad("Col2Im's image_shape and block_shape must have the same, nonzero length");
    for (size_t d = 0; d < image.size(); ++d)
      if (image[d] < 1 || block[d] < 1) bad("Col2Im's shapes must be positive");
    kernels::WindowAttrs a = attrs_;
    a.kernel = block;
    const kernels::Window w = kernels::resolve_window(a, image);
    const int64_t k = w.kernel_numel();
    if (x.dim(1) % k != 0)
      bad("Col2Im's input has " + std::to_string(x.dim(1)) +
          " rows, not a multiple of the block size " + std::to_string(k));
    if (x.dim(2) != w.out_numel())
      bad("Col2Im's input has " + std::to_string(x.dim(2)) + " blocks, the shapes give " +
          std::to_string(w.out_numel()));
    const int64_t C = x.dim(1) / k;
    const ElemType t = x.type();
    const ElemType ct = t == ElemType::Float || t == ElemType::Double
                            ? t
                            : (kernels::is_narrow_float(t) ? ElemType::Float : ElemType::Double);
    if (t == ElemType::String || t == ElemType::Bool || is_sub_byte(t))
      kernels::unsupported_type(t, "Col2Im");
    const Tensor xc = kernels::cast(x, ct);
    Tensor y = kernels::visit_float(ct, "Col2Im", [&](auto tag) {
      using T = typename decltype(tag)::type;
      return col2im<T>(xc, w, C, io.pool());
    });
    io.set_output(0, kernels::cast(y, t));
  }

 private:
  kernels::WindowAttrs attrs_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Col2Im>(read_window_attrs(ctx));
}

void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const auto image = int_values(ctx, 1);
  const auto block = int_values(ctx, 2);
  if (s.rank_known && s.dims.size() != 3) ctx.invalid("the input must have rank 3");
  if (image && block && image->size() != block->size())
    ctx.invalid("image_shape and block_shape differ in length");
  size_t spatial = 0;
  if (image) {
    spatial = image->size();
  } else if (block) {
    spatial = block->size();
  } else {
    const ir::Shape& is = ctx.input_shape(1);
    if (!is.rank_known || is.dims.size() != 1 || !is.dims[0].is_known()) {
      ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
      return;
    }
    spatial = static_cast<size_t>(is.dims[0].value);
  }
  std::vector<ir::Dim> out(2 + spatial);
  if (s.rank_known) {
    out[0] = s.dims[0];
    if (block) {
      int64_t prod = 1;
      for (int64_t b : *block) {
        if (b <= 0) ctx.invalid("block_shape entries must be positive");
        prod *= b;
      }
      const ir::Dim& c = s.dims[1];
      if (c.is_known()) {
        if (c.value % prod != 0)
          ctx.invalid("input dim 1 (" + std::to_string(c.value) +
                      ") is not a multiple of the block size " + std::to_string(prod));
        out[1] = ir::Dim::known(c.value / prod);
      } else if (prod == 1) {
        out[1] = c;
      }
    }
  }
  if (image)
    for (size_t k = 0; k < spatial; ++k) out[2 + k] = ir::Dim::known((*image)[k]);
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {18,
     "input: T, image_shape: tensor(int64), block_shape: tensor(int64) -> output: T; T = "
     "all_ir4; dilations: ints?, pads: ints?, strides: ints?"}};

}  // namespace col2im_op
}  // namespace

OpDef def_Col2Im() {
  using namespace col2im_op;
  return def_from_rows("", "Col2Im", make, infer, kRows);
}

}  // namespace bough::ops
