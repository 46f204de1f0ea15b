// Flatten: a 2-D view [d0*...*d(axis-1), d(axis)*...*d(n-1)] of the input; axis is in
// [-r, r] (negative from opset 11). The buffer is shared.
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace flatten_op {
class Flatten : public Kernel {
 public:
  explicit Flatten(int64_t axis) : axis_(axis) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis > rank)
      fail(ErrorKind::BadInput, "",
           "axis " + std::to_string(axis_) + " is out of range for rank " + std::to_string(rank));
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < rank; ++i) (i < axis ? outer : inner) *= x.dim(static_cast<size_t>(i));
    io.set_output(0, x.reshaped({outer, inner}));
  }

 private:
  int64_t axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Flatten>(ctx.attr_int("axis", 1));
}
void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, ctx.input_elem(0), unknown_dims(2));
    return;
  }
  const auto rank = static_cast<int64_t>(s.dims.size());
  int64_t axis = ctx.attr_int("axis", 1);
  if (axis < -rank || axis > rank)
    ctx.invalid("axis " + std::to_string(axis) + " is out of range for rank " +
                std::to_string(rank));
  if (axis < 0) axis += rank;
  const auto a = static_cast<size_t>(axis);
  ctx.set_output_tensor(0, ctx.input_elem(0),
                        ir::Shape::of({layout_infer::dim_product(s.dims, 0, a),
                                       layout_infer::dim_product(s.dims, a, s.dims.size())}));
}

constexpr SignatureText kRows[] = {{1, "input: T -> output: T; T = floats; axis: int = 1"},
                                   {9, "input: T -> output: T; T = all; axis: int = 1"},
                                   {11, "input: T -> output: T; T = all; axis: int = 1"},
                                   {13, "input: T -> output: T; T = all_ir4; axis: int = 1"},
                                   {21, "input: T -> output: T; T = all_ir10; axis: int = 1"},
                                   {23, "input: T -> output: T; T = all_ir11; axis: int = 1"},
                                   {24, "input: T -> output: T; T = all_ir12; axis: int = 1"},
                                   {25, "input: T -> output: T; T = all_ir13; axis: int = 1"}};

}  // namespace flatten_op
}  // namespace

OpDef def_Flatten() {
  using namespace flatten_op;
  return def_from_rows("", "Flatten", make, infer, kRows);
}

}  // namespace bough::ops
