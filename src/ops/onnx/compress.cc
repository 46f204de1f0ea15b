// Compress: the slices along `axis` whose entry in the 1-D bool `condition` is true; without
// an axis, the selected elements of the flattened input. A condition shorter than the axis
// drops the slices past its end.
#include <algorithm>
#include <vector>

#include "kernels/dispatch.h"
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace compress_op {
class Compress : public Kernel {
 public:
  Compress(bool has_axis, int64_t axis) : has_axis_(has_axis), axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor& cond = io.input(1);
    if (cond.rank() != 1 || cond.type() != ElemType::Bool)
      fail(ErrorKind::BadInput, "", "condition must be a 1-D bool tensor");
    const Tensor x = has_axis_ ? in : in.reshaped(Dims{in.numel()});
    const auto rank = static_cast<int64_t>(x.rank());
    if (rank == 0) fail(ErrorKind::BadInput, "", "Compress input must have rank >= 1");
    const auto axis = static_cast<size_t>(has_axis_ ? kernels::normalize_axis(axis_, rank) : 0);
    const int64_t len = x.dim(axis);
    std::vector<int64_t> keep;
    for (int64_t i = 0; i < cond.numel(); ++i) {
      if (!cond.data<bool>()[i]) continue;
      if (i >= len)
        fail(ErrorKind::BadInput, "",
             "condition selects entry " + std::to_string(i) + " of an axis of " +
                 std::to_string(len));
      keep.push_back(i);
    }
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= x.dim(d);
    for (size_t d = axis + 1; d < x.rank(); ++d) inner *= x.dim(d);
    Dims shape = x.shape();
    shape[axis] = static_cast<int64_t>(keep.size());
    if (is_sub_byte(x.type())) fail(ErrorKind::Unsupported, "", "Compress on sub-byte types");
    Tensor y(x.type(), shape);
    kernels::visit_storage(x.type(), "Compress", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(y);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : keep) {
          std::copy_n(src + (o * len + i) * inner, inner, dst);
          dst += inner;
        }
    });
    io.set_output(0, std::move(y));
  }

 private:
  bool has_axis_;
  int64_t axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Compress>(ctx.has_attr("axis"), ctx.attr_int("axis", 0));
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  const ir::Shape& c = ctx.input_shape(1);
  if (c.rank_known && c.dims.size() != 1) ctx.invalid("condition must be 1-D");
  ir::Dim n = ir::Dim::unknown();
  if (const Tensor* cond = ctx.input_value(1); cond && cond->type() == ElemType::Bool) {
    int64_t count = 0;
    for (int64_t i = 0; i < cond->numel(); ++i) count += cond->data<bool>()[i] ? 1 : 0;
    n = ir::Dim::known(count);
  }
  if (!ctx.has_attr("axis")) {
    ctx.set_output_tensor(0, elem, ir::Shape::of({n}));
    return;
  }
  if (!s.rank_known) {
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
    return;
  }
  const auto axis = static_cast<size_t>(
      normalize_axis(ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(s.dims.size()), "axis"));
  std::vector<ir::Dim> out = s.dims;
  out[axis] = n;
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {9, "input: T, condition: T1 -> output: T; T = all, T1 = bool; axis: int?"},
    {11, "input: T, condition: T1 -> output: T; T = all, T1 = bool; axis: int?"}};

}  // namespace compress_op
}  // namespace

OpDef def_Compress() {
  using namespace compress_op;
  return def_from_rows("", "Compress", make, infer, kRows);
}

}  // namespace bough::ops
