// Expand: the input broadcast (multidirectionally, numpy rules) with `shape`; a 1 in
// `shape` keeps the input's dimension, so the output may be larger than `shape` asks.
#include <algorithm>

#include "kernels/broadcast.h"
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace expand_op {
class Expand : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const std::vector<int64_t> spec = kernels::read_shape_arg(io.input(1), "shape");
    for (int64_t d : spec)
      if (d < 0)
        fail(ErrorKind::BadInput, "", "Expand shape " + shape_string(spec) + " is negative");
    const Dims target{std::span<const int64_t>(spec)};
    const Dims shape = kernels::broadcast_shape(x.shape(), target);
    if (shape == x.shape()) return io.set_output(0, x);
    // Input strides aligned at the right, 0 where the input is broadcast.
    const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
    const size_t shift = shape.size() - x.rank();
    std::vector<int64_t> strides(shape.size(), 0);
    for (size_t d = 0; d < x.rank(); ++d)
      if (x.dim(d) != 1) strides[shift + d] = in_strides[d];
    Tensor out(x.type(), shape);
    kernels::strided_copy(x, {0, strides}, out, {0, kernels::contiguous_strides(shape)}, shape,
                          &io.pool());
    io.set_output(0, std::move(out));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Expand>(); }
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& in = ctx.input_shape(0);
  if (auto shape = int_values(ctx, 1)) {
    ir::Shape target = known_shape(*shape);
    if (!in.rank_known) {
      // Dims of 1 take the input's, unknown here.
      for (ir::Dim& d : target.dims)
        if (d.is_known() && d.value == 1) d = ir::Dim::unknown();
      if (shape->empty()) target = ir::Shape::unknown_rank();
      ctx.set_output_tensor(0, elem, std::move(target));
      return;
    }
    ctx.set_output_tensor(0, elem, broadcast_shapes(ctx, in, target));
    return;
  }
  const ir::Shape& s = ctx.input_shape(1);
  if (in.rank_known && s.rank_known && s.dims.size() == 1 && s.dims[0].is_known())
    ctx.set_output_tensor(
        0, elem, unknown_dims(std::max(in.dims.size(), static_cast<size_t>(s.dims[0].value))));
  else
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
}

constexpr SignatureText kRows[] = {
    {8, "input: T, shape: tensor(int64) -> output: T; T = all"},
    {13, "input: T, shape: tensor(int64) -> output: T; T = all_ir4"}};

}  // namespace expand_op
}  // namespace

OpDef def_Expand() {
  using namespace expand_op;
  return def_from_rows("", "Expand", make, infer, kRows);
}

}  // namespace bough::ops
