// Flatten: a 2-D view [d0*...*d(axis-1), d(axis)*...*d(n-1)] of the input; axis is in
// [-r, r] (negative from opset 11). The buffer is shared.
#include "ops/registry.h"

namespace bough::ops {

namespace {
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
}  // namespace

const OpDef& def_Flatten() {
  static const OpDef def{"",
                         "Flatten",
                         {1, 9, 11, 13, 21, 23, 24, 25},
                         1,
                         1,
                         1,
                         1,
                         make,
                         nullptr,
                         {{1, "input: T -> output: T; T = floats; axis: int = 1"},
                          {9, "input: T -> output: T; T = all; axis: int = 1"},
                          {11, "input: T -> output: T; T = all; axis: int = 1"},
                          {13, "input: T -> output: T; T = all_ir4; axis: int = 1"}}};
  return def;
}

}  // namespace bough::ops
