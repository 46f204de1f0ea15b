// Unsqueeze: inserts dimensions of size 1 at `axes` (positions in the output, negative from
// the back; an attribute before opset 13, an input from 13). The buffer is shared.
#include <algorithm>

#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace unsqueeze_op {
class Unsqueeze : public Kernel {
 public:
  explicit Unsqueeze(std::vector<int64_t> axes) : axes_(std::move(axes)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    std::vector<int64_t> axes = io.has_input(1) ? kernels::read_ints(io.input(1), "axes") : axes_;
    const auto rank = static_cast<int64_t>(x.rank() + axes.size());
    std::vector<int64_t> at = kernels::normalize_axes(axes, rank);
    std::sort(at.begin(), at.end());
    Dims shape = x.shape();
    for (int64_t a : at) shape.insert(static_cast<size_t>(a), 1);
    io.set_output(0, x.reshaped(shape));
  }

 private:
  std::vector<int64_t> axes_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool from_input = ctx.node.inputs.size() >= 2 && ctx.node.inputs[1];
  if (ctx.since >= 13 && !from_input) ctx.invalid("Unsqueeze needs the axes input");
  if (ctx.since < 13 && !from_input && !ctx.has_attr("axes"))
    ctx.invalid("Unsqueeze needs the axes attribute");
  return std::make_unique<Unsqueeze>(ctx.attr_ints("axes"));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const auto axes = layout_infer::ints_arg(ctx, "axes", 13, 1);
  if (!s.rank_known || !axes) {
    const ir::Shape& a = ctx.since >= 13 ? ctx.input_shape(1) : ir::Shape::unknown_rank();
    if (s.rank_known && a.rank_known && a.dims.size() == 1 && a.dims[0].is_known())
      ctx.set_output_tensor(0, elem,
                            unknown_dims(s.dims.size() + static_cast<size_t>(a.dims[0].value)));
    else if (s.rank_known && axes)
      ctx.set_output_tensor(0, elem, unknown_dims(s.dims.size() + axes->size()));
    else
      ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const size_t rank = s.dims.size() + axes->size();
  std::vector<bool> inserted(rank, false);
  for (int64_t a : layout_infer::normalize_axes(ctx, *axes, static_cast<int64_t>(rank), "axis"))
    inserted[static_cast<size_t>(a)] = true;
  std::vector<ir::Dim> out;
  size_t next = 0;
  for (size_t k = 0; k < rank; ++k) out.push_back(inserted[k] ? ir::Dim::known(1) : s.dims[next++]);
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "data: T -> expanded: T; T = all; axes: ints"},
    {11, "data: T -> expanded: T; T = all; axes: ints"},
    {13, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir4"},
    {21, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir10"},
    {23, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir11"},
    {24, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir12"},
    {25, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir13"}};

}  // namespace unsqueeze_op
}  // namespace

OpDef def_Unsqueeze() {
  using namespace unsqueeze_op;
  return def_from_rows("", "Unsqueeze", make, infer, kRows);
}

}  // namespace bough::ops
