// com.microsoft SkipSimplifiedLayerNormalization-1: the RMS normalization over the last
// dimension of s = input + skip + bias, output = s * inv_std * gamma with
// inv_std = 1 / sqrt(mean(s^2) + epsilon) (no mean subtracted, no beta). The optional outputs
// give mean (0: none is taken, as ONNX Runtime gives it) and inv_std_var (float, the input's
// dims with a last dim of 1) and input_skip_bias_sum (s).
#include "kernels/convert.h"
#include "ops/microsoft/skip_norm.h"

namespace bough::ops {

namespace {
class SkipSimplifiedLayerNormalization : public Kernel {
 public:
  explicit SkipSimplifiedLayerNormalization(double epsilon) : epsilon_(epsilon) {}
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() < 2)
      fail(ErrorKind::BadInput, "",
           "SkipSimplifiedLayerNormalization's input must have rank 2 or more, got " +
               shape_string(x.shape()));
    microsoft::NormInputs in{&x, &io.input(1), &io.input(2), nullptr,
                             io.has_input(3) ? &io.input(3) : nullptr};
    microsoft::NormOutputs r =
        microsoft::skip_normalize(in, static_cast<int64_t>(x.rank()) - 1, true, epsilon_,
                                  io.has_output(3), io.pool(), "SkipSimplifiedLayerNormalization");
    io.set_output(0, std::move(r.y));
    if (io.has_output(1)) io.set_output(1, kernels::cast(r.mean, ElemType::Float));
    if (io.has_output(2)) io.set_output(2, kernels::cast(r.inv_std, ElemType::Float));
    io.set_output(3, std::move(r.sum));
  }

 private:
  double epsilon_;
};
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<SkipSimplifiedLayerNormalization>(ctx.attr_float("epsilon", 1e-12f));
}
void infer(InferContext& ctx) { microsoft::infer_skip_norm(ctx, -1, {1, 2}, ElemType::Float, 3); }
}  // namespace

const OpDef& def_MsSkipSimplifiedLayerNormalization() {
  static const OpDef def{
      "com.microsoft",
      "SkipSimplifiedLayerNormalization",
      {1},
      3,
      4,
      1,
      4,
      make,
      infer,
      {{1,
        "input: T, skip: T, gamma: T, bias?: T -> output: T, mean?: U, inv_std_var?: U, "
        "input_skip_bias_sum?: T; T = float float16 bfloat16, U = float; epsilon: float?"}}};
  return def;
}

}  // namespace bough::ops
