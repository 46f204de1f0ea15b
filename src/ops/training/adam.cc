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

struct Adam {
  static constexpr const char* kName = "Adam";
  static constexpr std::string_view kStates = "VH";

  explicit Adam(const BuildContext& ctx)
      : alpha(ctx.attr_float("alpha", 0.9f)),
        beta(ctx.attr_float("beta", 0.999f)),
        epsilon(ctx.attr_float("epsilon", 1e-6f)),
        norm_coefficient(ctx.attr_float("norm_coefficient", 0.0f)),
        norm_coefficient_post(ctx.attr_float("norm_coefficient_post", 0.0f)) {}

  auto rule(const training::Step& step) const {
    double rate = step.rate;
    if (step.count > 0) {
      const double t = static_cast<double>(step.count);
      rate *= std::sqrt(1.0 - std::pow(beta, t)) / (1.0 - std::pow(alpha, t));
    }
    return [rate, this](auto x, auto g, auto& s) {
      using T = decltype(x);
      const T gr = static_cast<T>(norm_coefficient) * x + g;
      T &v = s[0], &h = s[1];
      v = static_cast<T>(alpha) * v + static_cast<T>(1.0 - alpha) * gr;
      h = static_cast<T>(beta) * h + static_cast<T>(1.0 - beta) * (gr * gr);
      const T stepped = x - static_cast<T>(rate) * (v / (std::sqrt(h) + static_cast<T>(epsilon)));
      return static_cast<T>(1.0 - norm_coefficient_post) * stepped;
    };
  }

  double alpha, beta, epsilon, norm_coefficient, norm_coefficient_post;
};

}  // namespace

OpDef def_TrainingAdam() {
  // One group of X, G, V and H at least, after R and T; an X', a V' and an H' for each.
  static constexpr SignatureText kRows[] = {
      {1,
       "R: T1, T: T2, inputs**: T3 -> outputs**: T3; T1 = float double, T2 = int64, T3 = float "
       "double; alpha: float = 0.8999999761581421, beta: float = 0.9990000128746033, epsilon: "
       "float = 9.999999974752427e-07, norm_coefficient: float = 0.0, norm_coefficient_post: "
       "float = 0.0"}};
  return training::optimizer_def<Adam>(kRows);
}

}  // namespace bough::ops
