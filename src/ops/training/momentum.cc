// ai.onnx.preview.training Momentum-1: for each tensor X with gradient G and momentum V, with
// b = beta after the first update (T > 0) and 1 on it (T = 0):
//   g = norm_coefficient * X + G;  V' = alpha * V + b * g
//   mode "standard": X' = X - R * V'
//   mode "nesterov": X' = X - R * (g + alpha * V')
#include "ops/training/optimizer.h"

namespace bough::ops {

namespace {

constexpr const char* kOp = "Momentum";
constexpr std::string_view kStates = "V";

class Momentum : public Kernel {
 public:
  explicit Momentum(const BuildContext& ctx)
      : n_(training::tensor_count(ctx, kStates)),
        alpha_(ctx.attr_float("alpha", 0.0f)),
        beta_(ctx.attr_float("beta", 0.0f)),
        norm_coefficient_(ctx.attr_float("norm_coefficient", 0.0f)) {
    const std::string mode = ctx.attr_string("mode", "");
    if (mode != "standard" && mode != "nesterov")
      ctx.invalid("mode must be \"standard\" or \"nesterov\", got \"" + mode + "\"");
    nesterov_ = mode == "nesterov";
  }

  void run(KernelIO& io) override {
    const training::Step step = training::read_step(io, kOp);
    const double beta = step.count > 0 ? beta_ : 1.0;
    training::run_optimizer<kStates.size()>(io, kOp, kStates, n_, [&](auto x, auto g, auto& s) {
      using T = decltype(x);
      const T gr = static_cast<T>(norm_coefficient_) * x + g;
      T& v = s[0];
      v = static_cast<T>(alpha_) * v + static_cast<T>(beta) * gr;
      const T r = static_cast<T>(step.rate);
      return nesterov_ ? x - r * (gr + static_cast<T>(alpha_) * v) : x - r * v;
    });
  }

 private:
  size_t n_;  // tensors optimized
  double alpha_, beta_, norm_coefficient_;
  bool nesterov_ = false;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<Momentum>(ctx); }

void infer(InferContext& ctx) { training::infer_optimizer(ctx, kStates); }

}  // namespace

const OpDef& def_TrainingMomentum() {
  static const OpDef def{"ai.onnx.preview.training",
                         "Momentum",
                         {1},
                         5,
                         kVariadic,
                         2,
                         kVariadic,
                         make,
                         infer,
                         {{1,
                           "R: T1, T: T2, inputs**: T3 -> outputs**: T3; T1 = float double, T2 = "
                           "int64, T3 = float double; alpha: float, beta: float, mode: string, "
                           "norm_coefficient: float"}}};
  return def;
}

}  // namespace bough::ops
