// ai.onnx.preview.training Adagrad-1: for each tensor X with gradient G and accumulated
// squared gradient H, with r = R / (1 + T * decay_factor):
//   g = norm_coefficient * X + G;  H' = H + g * g;  X' = X - r * g / (sqrt(H') + epsilon)
#include <cmath>

#include "ops/training/optimizer.h"

namespace bough::ops {

namespace {

struct Adagrad {
  static constexpr const char* kName = "Adagrad";
  static constexpr std::string_view kStates = "H";

  explicit Adagrad(const BuildContext& ctx)
      : decay_factor(ctx.attr_float("decay_factor", 0.0f)),
        epsilon(ctx.attr_float("epsilon", 1e-6f)),
        norm_coefficient(ctx.attr_float("norm_coefficient", 0.0f)) {}

  auto rule(const training::Step& step) const {
    const double rate = step.rate / (1.0 + static_cast<double>(step.count) * decay_factor);
    return [rate, this](auto x, auto g, auto& s) {
      using T = decltype(x);
      const T gr = static_cast<T>(norm_coefficient) * x + g;
      T& h = s[0];
      h = h + gr * gr;
      return x - static_cast<T>(rate) * gr / (std::sqrt(h) + static_cast<T>(epsilon));
    };
  }

  double decay_factor, epsilon, norm_coefficient;
};

}  // namespace

OpDef def_TrainingAdagrad() {
  // One group of X, G and H at least, after R and T; an X' and an H' for each.
  static constexpr SignatureText kRows[] = {
      {1,
       "R: T1, T: T2, inputs**: T3 -> outputs**: T3; T1 = float double, T2 = int64, T3 = float "
       "double; decay_factor: float = 0.0, epsilon: float = 9.999999974752427e-07, "
       "norm_coefficient: float = 0.0"}};
  return training::optimizer_def<Adagrad>(kRows);
}

}  // namespace bough::ops
