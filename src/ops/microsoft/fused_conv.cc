// com.microsoft FusedConv-1, ONNX Runtime's contrib operator, which the conv-activation pass
// writes (as ONNX Runtime's own fusion does): Conv, then `activation` with its
// `activation_params` on each output. Relu, Sigmoid, LeakyRelu (alpha), Clip (min, max) and
// HardSigmoid (alpha, beta), as ONNX Runtime has them, and two of bough's own that ONNX Runtime
// does not run: HardSwish (the operator) and ClipHardSwish (x * Clip(x + 3, 0, 6) / 6, as
// exporters write HardSwish before opset 14); without the optional sum input Z. Other
// activations are refused as unsupported. The Conv kernels activate Relu, LeakyRelu, Clip and
// Sigmoid in their tiles; HardSigmoid and the HardSwishes are applied here, over each output
// channel's plane once the convolution is done (moving them into the tiles is left to the
// kernels that activate in registers).
#include <algorithm>

#include "kernels/elementwise_loops.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/conv.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace fused_conv_op {

kernels::ConvEpilogue read_activation(const BuildContext& ctx) {
  kernels::ConvEpilogue e;
  const std::string name = ctx.attr_string("activation", "");
  const ir::Attribute* a = ctx.attr("activation_params");
  const std::vector<float> params = a ? a->floats : std::vector<float>{};
  auto expect_params = [&](size_t n) {
    if (params.size() != n)
      ctx.invalid("FusedConv activation " + name + " takes " + std::to_string(n) +
                  " activation_params, got " + std::to_string(params.size()));
  };
  if (name == "Relu") {
    expect_params(0);
    e.activation = kernels::Activation::Relu;
  } else if (name == "Sigmoid") {
    expect_params(0);
    e.activation = kernels::Activation::Sigmoid;
  } else if (name == "LeakyRelu") {
    expect_params(1);
    e.activation = kernels::Activation::LeakyRelu;
    e.alpha = params[0];
  } else if (name == "Clip") {
    expect_params(2);
    e.activation = kernels::Activation::Clip;
    e.alpha = params[0];
    e.beta = params[1];
  } else if (name == "HardSigmoid") {
    expect_params(2);
    e.activation = kernels::Activation::HardSigmoid;
    e.alpha = params[0];
    e.beta = params[1];
  } else if (name == "HardSwish" || name == "ClipHardSwish") {
    expect_params(0);
    e.activation =
        name == "HardSwish" ? kernels::Activation::HardSwish : kernels::Activation::ClipHardSwish;
  } else {
    ctx.unsupported("FusedConv activation '" + name + "' is not implemented");
  }
  return e;
}

// The Conv with no activation, then the activation over its output.
class ActivatedAfter : public Kernel {
 public:
  ActivatedAfter(std::unique_ptr<Kernel> conv, const kernels::ConvEpilogue& activation)
      : conv_(std::move(conv)), activation_(activation) {}

  void run(KernelIO& io) override {
    conv_->run(io);
    if (!io.has_output(0)) return;
    Tensor& y = io.output(0).tensor();
    const int64_t n = y.numel();
    if (n == 0) return;
    const int64_t planes = y.dim(0) * y.dim(1), plane = n / planes;  // Conv's Y is N x M x ...
    float* p = y.data<float>();
    io.pool().parallel_for(
        planes, util::grain_for(plane * kernels::kElementWork),
        [&](int64_t s, int64_t e) { activation_.activate(p + s * plane, (e - s) * plane); });
  }

 private:
  std::unique_ptr<Kernel> conv_;
  kernels::ConvEpilogue activation_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const kernels::ConvEpilogue e = read_activation(ctx);
  switch (e.activation) {
    case kernels::Activation::HardSigmoid:
    case kernels::Activation::HardSwish:
    case kernels::Activation::ClipHardSwish:
      return std::make_unique<ActivatedAfter>(make_conv(ctx, kernels::ConvEpilogue{}), e);
    default:
      return make_conv(ctx, e);
  }
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, B?: T -> Y: T; T = float; activation: string?, activation_params: floats?, "
     "auto_pad: string = NOTSET, dilations: ints?, group: int = 1, kernel_shape: ints?, "
     "pads: ints?, strides: ints?"}};

}  // namespace fused_conv_op
}  // namespace

const OpDef& def_FusedConv() {
  using namespace fused_conv_op;
  static const OpDef def = def_from_rows("com.microsoft", "FusedConv", make, infer_conv, kRows);
  return def;
}

}  // namespace bough::ops
