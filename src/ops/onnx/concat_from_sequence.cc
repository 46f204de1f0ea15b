// ConcatFromSequence: concatenates the sequence's tensors along `axis`; with new_axis=1 they
// are stacked along a new axis inserted at `axis` instead (which may then be rank, i.e. last).
#include "kernels/layout.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/sequence_infer.h"
#include "ops/registry.h"
#include "ops/sequence_util.h"

namespace bough::ops {

namespace {
namespace concat_from_sequence_op {

class ConcatFromSequence : public Kernel {
 public:
  ConcatFromSequence(int64_t axis, bool new_axis) : axis_(axis), new_axis_(new_axis) {}

  void run(KernelIO& io) override {
    const SequenceValue& seq = sequence_input(io, 0);
    if (seq.items.empty()) fail(ErrorKind::BadInput, "", "cannot concatenate an empty sequence");
    std::vector<const Tensor*> parts;
    for (const Value& item : seq.items) {
      if (!item.is_tensor())
        fail(ErrorKind::BadInput, "", "sequence items must be tensors, got " + describe(item));
      parts.push_back(&item.tensor());
    }
    const Tensor& first = *parts[0];
    const auto rank = static_cast<int64_t>(first.rank());
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, rank + (new_axis_ ? 1 : 0)));

    Dims shape = first.shape();
    if (new_axis_)
      shape.insert(axis, 0);
    else
      shape[axis] = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const Tensor& t = *parts[k];
      check_elem_type(first.type(), t, "sequence item " + std::to_string(k));
      if (!fits(first.shape(), t.shape(), axis))
        fail(ErrorKind::BadInput, "",
             "sequence item " + std::to_string(k) + " has shape " + shape_string(t.shape()) +
                 ", which cannot be joined with " + shape_string(first.shape()) + " along axis " +
                 std::to_string(axis));
      shape[axis] += new_axis_ ? 1 : t.dim(axis);
    }

    // Each part is [outer, run] in row-major order; it fills columns [offset, offset + run)
    // of the output seen as [outer, row].
    Tensor out(first.type(), shape);
    int64_t outer = 1;
    for (size_t i = 0; i < axis; ++i) outer *= shape[i];
    const int64_t row = outer ? out.numel() / outer : 0;
    int64_t offset = 0;
    for (const Tensor* t : parts) {
      const int64_t run = outer ? t->numel() / outer : 0;
      const int64_t dims[] = {outer, run}, from[] = {run, 1}, to[] = {row, 1};
      kernels::strided_copy(*t, {0, from}, out, {offset, to}, dims, io.context().pool);
      offset += run;
    }
    io.set_output(0, std::move(out));
  }

 private:
  // Same rank and dimensions, except along `axis` when concatenating there.
  bool fits(const Dims& a, const Dims& b, size_t axis) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i] != b[i] && (new_axis_ || i != axis)) return false;
    return true;
  }

  int64_t axis_;
  bool new_axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  if (!ctx.has_attr("axis")) ctx.invalid("ConcatFromSequence requires the 'axis' attribute");
  const int64_t new_axis = ctx.attr_int("new_axis", 0);
  if (new_axis != 0 && new_axis != 1)
    ctx.invalid("new_axis must be 0 or 1, got " + std::to_string(new_axis));
  return std::make_unique<ConcatFromSequence>(ctx.attr_int("axis", 0), new_axis == 1);
}

void infer(InferContext& ctx) {
  const ir::Type element = sequence_infer::element_of(ctx.input_type(0));
  const ElemType elem = element.kind == ir::Type::Kind::Tensor ? element.elem : ElemType::Undefined;
  if (element.kind != ir::Type::Kind::Tensor || !element.shape.rank_known) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const bool new_axis = ctx.attr_int("new_axis", 0) != 0;
  std::vector<ir::Dim> dims = element.shape.dims;
  const auto rank = static_cast<int64_t>(dims.size()) + (new_axis ? 1 : 0);
  const auto axis = static_cast<size_t>(normalize_axis(ctx, ctx.attr_int("axis", 0), rank, "axis"));
  if (new_axis)
    dims.insert(dims.begin() + static_cast<ptrdiff_t>(axis), ir::Dim::unknown());
  else
    dims[axis] = ir::Dim::unknown();
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {11,
     "input_sequence: S -> concat_result: T; S = seq(all), T = all; axis: "
     "int, new_axis: int = 0"}};

}  // namespace concat_from_sequence_op
}  // namespace

OpDef def_ConcatFromSequence() {
  using namespace concat_from_sequence_op;
  return def_from_rows("", "ConcatFromSequence", make, infer, kRows);
}

}  // namespace bough::ops
