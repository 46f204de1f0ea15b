// Concat: joins the inputs along `axis` (negative from opset 11; opset 1 defaults it to 1).
// All inputs share the element type, the rank and every other dimension.
#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace concat_op {
class Concat : public Kernel {
 public:
  explicit Concat(int64_t axis) : axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& first = io.input(0);
    const auto rank = static_cast<int64_t>(first.rank());
    if (rank == 0) fail(ErrorKind::BadInput, "", "cannot concatenate scalars");
    const auto axis = static_cast<size_t>(kernels::normalize_axis(axis_, rank));
    Dims shape = first.shape();
    shape[axis] = 0;
    for (size_t i = 0; i < io.num_inputs(); ++i) {
      const Tensor& t = io.input(i);
      if (t.type() != first.type())
        fail(ErrorKind::BadInput, "", "inputs have different element types");
      bool fits = t.rank() == first.rank();
      for (size_t d = 0; fits && d < t.rank(); ++d) fits = d == axis || t.dim(d) == first.dim(d);
      if (!fits)
        fail(ErrorKind::BadInput, "",
             "cannot concatenate shapes " + shape_string(first.shape()) + " and " +
                 shape_string(t.shape()) + " along axis " + std::to_string(axis));
      shape[axis] += t.dim(axis);
    }
    if (io.num_inputs() == 1) return io.set_output(0, first);
    Tensor out(first.type(), shape);
    const std::vector<int64_t> out_strides = kernels::contiguous_strides(shape);
    int64_t offset = 0;
    for (size_t i = 0; i < io.num_inputs(); ++i) {
      const Tensor& t = io.input(i);
      const std::vector<int64_t> strides = kernels::contiguous_strides(t.shape());
      kernels::strided_copy(t, {0, strides}, out, {offset * out_strides[axis], out_strides},
                            t.shape(), &io.pool());
      offset += t.dim(axis);
    }
    io.set_output(0, std::move(out));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  if (ctx.since >= 4 && !ctx.has_attr("axis")) ctx.invalid("Concat needs the axis attribute");
  return std::make_unique<Concat>(ctx.attr_int("axis", 1));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  std::optional<ir::Shape> merged;
  std::vector<ir::Dim> along;
  bool all_ranked = true;
  int64_t axis = 0;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    const ir::Shape& s = ctx.input_shape(i);
    if (!s.rank_known) {
      all_ranked = false;
      continue;
    }
    const auto rank = static_cast<int64_t>(s.dims.size());
    if (!merged) {
      if (rank == 0) ctx.invalid("Concat of scalars");
      axis = normalize_axis(ctx, ctx.attr_int("axis", 1), rank, "axis");
      merged = s;
    } else if (merged->dims.size() != s.dims.size()) {
      ctx.fails_when_run("inputs of ranks " + std::to_string(merged->dims.size()) + " and " +
                         std::to_string(rank));
    }
    for (size_t d = 0; d < s.dims.size(); ++d)
      if (static_cast<int64_t>(d) != axis)
        merged->dims[d] = layout_infer::merge_dims(ctx, merged->dims[d], s.dims[d],
                                                   "inputs on axis " + std::to_string(d));
    along.push_back(s.dims[static_cast<size_t>(axis)]);
  }
  if (!merged) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  merged->dims[static_cast<size_t>(axis)] =
      all_ranked ? layout_infer::dim_sum(along) : ir::Dim::unknown();
  ctx.set_output_tensor(0, elem, std::move(*merged));
}

constexpr SignatureText kRows[] = {{1, "inputs*: T -> concat_result: T; T = floats; axis: int?"},
                                   {4, "inputs*: T -> concat_result: T; T = all; axis: int"},
                                   {11, "inputs*: T -> concat_result: T; T = all; axis: int"},
                                   {13, "inputs*: T -> concat_result: T; T = all_ir4; axis: int"}};

}  // namespace concat_op
}  // namespace

OpDef def_Concat() {
  using namespace concat_op;
  return def_from_rows("", "Concat", make, infer, kRows);
}

}  // namespace bough::ops
