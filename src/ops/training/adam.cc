// ai.onnx.preview.training Adam-1: for each tensor X with gradient G, momentum V and
// accumulated squared gradient H:
//   g = norm_coefficient * X + G
//   V' = alpha * V + (1 - alpha) * g;  H' = beta * H + (1 - beta) * g * g
//   r = R * sqrt(1 - beta^T) / (1 - alpha^T) when T > 0 (bias correction), else R
//   X' = (1 - norm_coefficient_post) * (X - r * V' / (sqrt(H') + epsilon))
#include <cmath>

#include "ops/training/optimizer.h"

namespace bough::ops {

namespace {

constexpr const char* kOp = "Adam";
constexpr std::string_view kStates = "VH";

class Adam : public Kernel {
 public:
  explicit Adam(const BuildContext& ctx)
      : n_(training::tensor_count(ctx, kStates)),
        alpha_(ctx.attr_float("alpha", 0.9f)),
        beta_(ctx.attr_float("beta", 0.999f)),
        epsilon_(ctx.attr_float("epsilon", 1e-6f)),
        norm_coefficient_(ctx.attr_float("norm_coefficient", 0.0f)),
        norm_coefficient_post_(ctx.attr_float("norm_coefficient_post", 0.0f)) {}

  void run(KernelIO& io) override {
    const training::Step step = training::read_step(io, kOp);
    double rate = step.rate;
    if (step.count > 0) {
      const double t = static_cast<double>(step.count);
      rate *= std::sqrt(1.0 - std::pow(beta_, t)) / (1.0 - std::pow(alpha_, t));
    }
    training::run_optimizer<kStates.size()>(io, kOp, kStates, n_, [&](auto x, auto g, auto& s) {
      using T = decltype(x);
      const T gr = static_cast<T>(norm_coefficient_) * x + g;
      T &v = s[0], &h = s[1];
      v = static_cast<T>(alpha_) * v + static_cast<T>(1.0 - alpha_) * gr;
      h = static_cast<T>(beta_) * h + static_cast<T>(1.0 - beta_) * (gr * gr);
      const T stepped = x - static_cast<T>(rate) * (v / (std::sqrt(h) + static_cast<T>(epsilon_)));
      return static_cast<T>(1.0 - norm_coefficient_post_) * stepped;
    });
  }

 private:
  size_t n_;  // tensors optimized
  double alpha_, beta_, epsilon_, norm_coefficient_, norm_coefficient_post_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<Adam>(ctx); }

void infer(InferContext& ctx) { training::infer_optimizer(ctx, kStates); }

}  // namespace

const OpDef& def_TrainingAdam() {
  static const OpDef def{
      "ai.onnx.preview.training",
      "Adam",
      {1},
      6,
      kVariadic,
      3,
      kVariadic,
      make,
      infer,
      {{1,
        "R: T1, T: T2, inputs**: T3 -> outputs**: T3; T1 = float double, T2 = int64, T3 = float "
        "double; alpha: float = 0.8999999761581421, beta: float = 0.9990000128746033, epsilon: "
        "float = 9.999999974752427e-07, norm_coefficient: float = 0.0, norm_coefficient_post: "
        "float = 0.0"}}};
  return def;
}

}  // namespace bough::ops
