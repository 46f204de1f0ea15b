// Swish: y = x * sigmoid(alpha * x), alpha defaulting to 1. float16/bfloat16 go through float.
#include <cmath>

#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {

class Swish : public Kernel {
 public:
  explicit Swish(double alpha) : alpha_(alpha) {}

  void run(KernelIO& io) override {
    const double alpha = alpha_;
    io.set_output(0, float_map(io.input(0), io.pool(), "Swish", [alpha](auto v) {
                    using T = decltype(v);
                    return v / (T(1) + std::exp(-static_cast<T>(alpha) * v));
                  }));
  }

 private:
  double alpha_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Swish>(ctx.attr_float("alpha", 1.0f));
}

}  // namespace

const OpDef& def_Swish() {
  static const OpDef def{"", "Swish", {24}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
