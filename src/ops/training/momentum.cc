// ai.onnx.preview.training Momentum-1: for each tensor X with gradient G and momentum V, with
// b = beta after the first update (T > 0) and 1 on it (T = 0):
//   g = norm_coefficient * X + G;  V' = alpha * V + b * g
//   mode "standard": X' = X - R * V'
//   mode "nesterov": X' = X - R * (g + alpha * V')
#include "ops/attr_choice.h"
#include "ops/training/optimizer.h"

namespace bough::ops {

namespace {

struct Momentum {
  static constexpr const char* kName = "Momentum";
  static constexpr std::string_view kStates = "V";

  explicit Momentum(const BuildContext& ctx)
      : alpha(ctx.attr_float("alpha", 0.0f)),
        beta(ctx.attr_float("beta", 0.0f)),
        norm_coefficient(ctx.attr_float("norm_coefficient", 0.0f)),
        nesterov(attr_choice<bool>(ctx, "mode", "", {{"standard", false}, {"nesterov", true}})) {}

  auto rule(const training::Step& step) const {
    const double b = step.count > 0 ? beta : 1.0;
    return [b, rate = step.rate, this](auto x, auto g, auto& s) {
      using T = decltype(x);
      const T gr = static_cast<T>(norm_coefficient) * x + g;
      T& v = s[0];
      v = static_cast<T>(alpha) * v + static_cast<T>(b) * gr;
      const T r = static_cast<T>(rate);
      return nesterov ? x - r * (gr + static_cast<T>(alpha) * v) : x - r * v;
    };
  }

  double alpha, beta, norm_coefficient;
  bool nesterov;
};

}  // namespace

OpDef def_TrainingMomentum() {
  // One group of X, G and V at least, after R and T; an X' and a V' for each.
  static constexpr SignatureText kRows[] = {
      {1,
       "R: T1, T: T2, inputs**: T3 -> outputs**: T3; T1 = float double, T2 = "
       "int64, T3 = float double; alpha: float, beta: float, mode: string, "
       "norm_coefficient: float"}};
  return training::optimizer_def<Momentum>(kRows);
}

}  // namespace bough::ops
