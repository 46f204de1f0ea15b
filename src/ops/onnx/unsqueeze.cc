// Unsqueeze: inserts dimensions of size 1 at `axes` (positions in the output, negative from
// the back; an attribute before opset 13, an input from 13). The buffer is shared.
#include <algorithm>

#include "kernels/shape_args.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
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
}  // namespace

const OpDef& def_Unsqueeze() {
  static const OpDef def{"",
                         "Unsqueeze",
                         {1, 11, 13, 21, 23, 24, 25},
                         1,
                         2,
                         1,
                         1,
                         make,
                         nullptr,
                         {{1, "data: T -> expanded: T; T = all; axes: ints"},
                          {11, "data: T -> expanded: T; T = all; axes: ints"},
                          {13, "data: T, axes: tensor(int64) -> expanded: T; T = all_ir4"}}};
  return def;
}

}  // namespace bough::ops
