// Squeeze: removes dimensions of size 1 — those at `axes` (an attribute before opset 13,
// an optional input from 13), or all of them when no axes are given. The buffer is shared.
#include <optional>

#include "kernels/shape_args.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
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
}  // namespace

const OpDef& def_Squeeze() {
  static const OpDef def{"",
                         "Squeeze",
                         {1, 11, 13, 21, 23, 24, 25},
                         1,
                         2,
                         1,
                         1,
                         make,
                         nullptr,
                         {{1, "data: T -> squeezed: T; T = all; axes: ints?"},
                          {11, "data: T -> squeezed: T; T = all; axes: ints?"},
                          {13, "data: T, axes?: tensor(int64) -> squeezed: T; T = all_ir4"}}};
  return def;
}

}  // namespace bough::ops
