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

class NegativeLogLikelihoodLoss : public Kernel {
 public:
  NegativeLogLikelihoodLoss(LossReduction reduction, std::optional<int64_t> ignore)
      : reduction_(reduction), ignore_(ignore) {}

  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const Tensor& target = io.input(1);
    const Tensor* weight = io.has_input(2) ? &io.input(2) : nullptr;
    const LossShape s =
        check_loss_operands(in, target, weight, ignore_, "NegativeLogLikelihoodLoss");
    auto loss = [&](const Tensor& x, const Tensor* w) {
      return kernels::visit_float(x.type(), "NegativeLogLikelihoodLoss", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return nll_from_log_prob<T>(x.data<T>(), w ? w->data<T>() : nullptr, s, ignore_, reduction_,
                                    x.type(), target.shape());
      });
    };
    io.set_output(0, kernels::through_float(loss, in, weight));
  }

 private:
  LossReduction reduction_;
  std::optional<int64_t> ignore_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<NegativeLogLikelihoodLoss>(loss_reduction(ctx), loss_ignore_index(ctx));
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

const OpDef& def_NegativeLogLikelihoodLoss() {
  using namespace negative_log_likelihood_loss_op;
  static const OpDef def = def_from_rows("", "NegativeLogLikelihoodLoss", make, infer_loss, kRows);
  return def;
}

}  // namespace bough::ops
