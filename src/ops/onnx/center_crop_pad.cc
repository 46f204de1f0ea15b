// CenterCropPad: crops or pads each of `axes` (default: all) to the length in `shape`,
// keeping the center: a crop drops floor((n - s) / 2) entries in front, a pad adds
// floor((s - n) / 2) zeros in front and the rest behind.
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace center_crop_pad_op {

class CenterCropPad : public Kernel {
 public:
  CenterCropPad(bool has_axes, std::vector<int64_t> axes)
      : has_axes_(has_axes), axes_(std::move(axes)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const std::vector<int64_t> sizes = kernels::read_shape_arg(io.input(1), "shape");
    const auto rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> axes = axes_;
    if (!has_axes_)
      for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
    axes = kernels::normalize_axes(axes, rank);
    if (sizes.size() != axes.size())
      fail(ErrorKind::BadInput, "",
           "shape has " + std::to_string(sizes.size()) + " entries for " +
               std::to_string(axes.size()) + " axes");
    Dims out_shape = x.shape();
    for (size_t k = 0; k < axes.size(); ++k) {
      if (sizes[k] < 0) fail(ErrorKind::BadInput, "", "shape entries must not be negative");
      out_shape[static_cast<size_t>(axes[k])] = sizes[k];
    }
    Tensor y = Tensor::zeros(x.type(), out_shape);
    const std::vector<int64_t> src_strides = kernels::contiguous_strides(x.shape());
    const std::vector<int64_t> dst_strides = kernels::contiguous_strides(out_shape);
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    int64_t src_base = 0, dst_base = 0;
    for (size_t d = 0; d < static_cast<size_t>(rank); ++d) {
      const int64_t n = x.dim(d), s = out_shape[d];
      dims[d] = std::min(n, s);
      if (n > s) src_base += (n - s) / 2 * src_strides[d];
      if (s > n) dst_base += (s - n) / 2 * dst_strides[d];
    }
    if (y.numel() > 0 && x.numel() > 0)
      kernels::strided_copy(x, {src_base, src_strides}, y, {dst_base, dst_strides}, dims,
                            &io.pool());
    io.set_output(0, std::move(y));
  }

 private:
  bool has_axes_;
  std::vector<int64_t> axes_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<CenterCropPad>(ctx.has_attr("axes"), ctx.attr_ints("axes"));
}

void infer(InferContext& ctx) {
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  const auto rank = static_cast<int64_t>(s->dims.size());
  const std::vector<int64_t> axes = layout_infer::axes_or_all(ctx, ctx.has_attr("axes"), rank);
  std::vector<ir::Dim> out = s->dims;
  const auto sizes = int_values(ctx, 1);
  if (sizes && sizes->size() != axes.size())
    ctx.invalid("shape has " + std::to_string(sizes->size()) + " entries for " +
                std::to_string(axes.size()) + " axes");
  for (size_t k = 0; k < axes.size(); ++k) {
    if (sizes && (*sizes)[k] < 0) ctx.invalid("shape entries must not be negative");
    out[static_cast<size_t>(axes[k])] = sizes ? ir::Dim::known((*sizes)[k]) : ir::Dim::unknown();
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {18,
     "input_data: T, shape: Tind -> output_data: T; T = all_ir4, Tind = "
     "int32 int64; axes: ints?"}};

}  // namespace center_crop_pad_op
}  // namespace

OpDef def_CenterCropPad() {
  using namespace center_crop_pad_op;
  return def_from_rows("", "CenterCropPad", make, infer, kRows);
}

}  // namespace bough::ops
