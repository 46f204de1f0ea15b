// NegativeLogLikelihoodLoss: loss[n, d...] = -input[n, target[n, d...], d...] * weight[target],
// reduced by `reduction` (none, sum, or mean: divided by the sum of the applied weights).
// Targets equal to ignore_index are left out. float16/bfloat16 go through float.
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nll_loss.h"

namespace bough::ops {

namespace {
namespace negative_log_likelihood_loss_op {

class NegativeLogLikelihoodLoss : public LossKernel {
 public:
  using LossKernel::LossKernel;

  void run(KernelIO& io) override {
    const Operands o = operands(io, "NegativeLogLikelihoodLoss");
    auto loss_of = [&](const Tensor& x, const Tensor* w) {
      return kernels::visit_float(x.type(), "NegativeLogLikelihoodLoss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return loss<T>(x.data<T>(), w ? w->data<T>() : nullptr, o, x.type());
      });
    };
    io.set_output(0, kernels::through_float(loss_of, o.scores, o.weight));
  }
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<NegativeLogLikelihoodLoss>(ctx);
}

constexpr SignatureText kRows[] = {
    {12,
     "input: T, target: Tind, weight?: T -> loss: T; T = floats, Tind = "
     "int32 int64; ignore_index: int?, reduction: string = mean"},
    {13,
     "input: T, target: Tind, weight?: T -> loss: T; T = floats, Tind = "
     "int32 int64; ignore_index: int?, reduction: string = mean"},
    {22,
     "input: T, target: Tind, weight?: T -> loss: T; T = floats bfloat16, "
     "Tind = int32 int64; ignore_index: int?, reduction: string = mean"}};

}  // namespace negative_log_likelihood_loss_op
}  // namespace

OpDef def_NegativeLogLikelihoodLoss() {
  using namespace negative_log_likelihood_loss_op;
  return def_from_rows("", "NegativeLogLikelihoodLoss", make, infer_loss, kRows);
}

}  // namespace bough::ops
