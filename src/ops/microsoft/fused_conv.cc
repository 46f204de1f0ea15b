// com.microsoft FusedConv-1, ONNX Runtime's contrib operator, which the conv-activation pass
// writes (as ONNX Runtime's own fusion does): Conv, then `activation` with its
// `activation_params` on each output. Relu, Sigmoid, LeakyRelu (alpha), Clip (min, max) and
// HardSigmoid (alpha, beta), as ONNX Runtime has them, and two of bough's own that ONNX Runtime
// does not run: HardSwish (the operator) and ClipHardSwish (x * Clip(x + 3, 0, 6) / 6, as
// exporters write HardSwish before opset 14); without the optional sum input Z. Other
// activations are refused as unsupported. bough's own attribute `affine` ([scale, shift],
// written by the conv-activation pass for a scalar Mul and Add after the activation) then
// computes v * scale + shift, rounded as those two nodes. The Conv kernels activate each block of
// output while it is in cache: in registers (Relu, LeakyRelu, Clip) or over its rows right after
// they are stored (kernels::ConvEpilogue::in_registers).
#include "ops/def_from_rows.h"
#include "ops/onnx/conv.h"

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
  if (const ir::Attribute* affine = ctx.attr("affine")) {
    if (affine->floats.size() != 2)
      ctx.invalid("FusedConv's affine takes 2 floats (scale, shift), got " +
                  std::to_string(affine->floats.size()));
    e.affine = true;
    e.scale = affine->floats[0];
    e.shift = affine->floats[1];
  }
  return e;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return make_conv(ctx, read_activation(ctx));
}

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, B?: T -> Y: T; T = float; activation: string?, activation_params: floats?, "
     "affine: floats?, auto_pad: string = NOTSET, dilations: ints?, group: int = 1, "
     "kernel_shape: ints?, pads: ints?, strides: ints?"}};

}  // namespace fused_conv_op
}  // namespace

OpDef def_FusedConv() {
  using namespace fused_conv_op;
  return def_from_rows("com.microsoft", "FusedConv", make, infer_conv, kRows);
}

}  // namespace bough::ops
