// Squeeze: removes dimensions of size 1 — those at `axes` (an attribute before opset 13,
// an optional input from 13), or all of them when no axes are given. The buffer is shared.
#include <optional>

#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace squeeze_op {
class Squeeze : public Kernel {
 public:
  explicit Squeeze(std::optional<std::vector<int64_t>> axes) : axes_(std::move(axes)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::optional<std::vector<int64_t>> axes = axes_;
    if (io.has_input(1)) axes = kernels::read_ints(io.input(1), "axes");
    const auto rank = static_cast<int64_t>(x.rank());
    std::vector<bool> drop(x.rank(), false);
    if (axes) {
      for (int64_t a : kernels::normalize_axes(*axes, rank)) {
        if (x.dim(static_cast<size_t>(a)) != 1)
          fail(ErrorKind::BadInput, "",
               "cannot squeeze axis " + std::to_string(a) + " of shape " + shape_string(x.shape()));
        drop[static_cast<size_t>(a)] = true;
      }
    } else {
      for (size_t i = 0; i < x.rank(); ++i) drop[i] = x.dim(i) == 1;
    }
    Dims shape;
    for (size_t i = 0; i < x.rank(); ++i)
      if (!drop[i]) shape.push_back(x.dim(i));
    io.set_output(0, x.reshaped(shape));
  }

 private:
  std::optional<std::vector<int64_t>> axes_;  // the attribute (opset < 13)
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::optional<std::vector<int64_t>> axes;
  if (ctx.since < 13 && ctx.has_attr("axes")) axes = ctx.attr_ints("axes");
  return std::make_unique<Squeeze>(std::move(axes));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const bool given = ctx.since >= 13 ? ctx.has_input(1) : ctx.has_attr("axes");
  const auto axes = layout_infer::ints_arg(ctx, "axes", 13, 1);
  if (!s.rank_known || (given && !axes)) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto rank = static_cast<int64_t>(s.dims.size());
  std::vector<bool> drop(s.dims.size(), false);
  if (given) {
    for (int64_t a : layout_infer::normalize_axes(ctx, *axes, rank, "axis")) {
      const ir::Dim& d = s.dims[static_cast<size_t>(a)];
      if (d.is_known() && d.value != 1)
        ctx.invalid("cannot squeeze axis " + std::to_string(a) + " of size " +
                    std::to_string(d.value));
      drop[static_cast<size_t>(a)] = true;
    }
  } else {
    for (size_t k = 0; k < s.dims.size(); ++k) {
      if (!s.dims[k].is_known()) {
        ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
        return;
      }
      drop[k] = s.dims[k].value == 1;
    }
  }
  std::vector<ir::Dim> out;
  for (size_t k = 0; k < s.dims.size(); ++k)
    if (!drop[k]) out.push_back(s.dims[k]);
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "data: T -> squeezed: T; T = all; axes: ints?"},
    {11, "data: T -> squeezed: T; T = all; axes: ints?"},
    {13, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir4"},
    {21, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir10"},
    {23, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir11"},
    {24, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir12"},
    {25, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir13"}};

}  // namespace squeeze_op
}  // namespace

OpDef def_Squeeze() {
  using namespace squeeze_op;
  return def_from_rows("", "Squeeze", make, infer, kRows);
}

}  // namespace bough::ops
