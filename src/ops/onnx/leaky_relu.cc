// LeakyRelu: y = x for x >= 0, alpha * x otherwise (alpha defaults to 0.01).
#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {

class LeakyRelu : public Kernel {
 public:
  explicit LeakyRelu(float alpha) : alpha_(alpha) {}

  void run(KernelIO& io) override {
    const float alpha = alpha_;
    io.set_output(0, float_map(io.input(0), io.pool(), "LeakyRelu",
                               [alpha](auto v) { return v < 0 ? v * alpha : v; }));
  }

 private:
  float alpha_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<LeakyRelu>(ctx.attr_float("alpha", 0.01f));
}

}  // namespace

const OpDef& def_LeakyRelu() {
  static const OpDef def{"", "LeakyRelu", {1, 6, 16}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
