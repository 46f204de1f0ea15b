// Selu: y = gamma * x for x > 0, gamma * alpha * (exp(x) - 1) otherwise.
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace selu_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.67326319217681884765625f);
  const float gamma = ctx.attr_float("gamma", 1.05070102214813232421875f);
  return make_float_map("Selu", [alpha, gamma](auto v) {
    using T = decltype(v);
    return static_cast<T>(gamma) * (v > 0 ? v : static_cast<T>(alpha) * std::expm1(v));
  });
}
constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; alpha: float = 1.673200011253357, "
     "consumed_inputs: ints?, gamma: float = 1.0506999492645264"},
    {6,
     "X: T -> Y: T; T = floats; alpha: float = 1.6732631921768188, gamma: "
     "float = 1.0507010221481323"},
    {22,
     "X: T -> Y: T; T = floats bfloat16; alpha: float = 1.6732631921768188, "
     "gamma: float = 1.0507010221481323"}};

}  // namespace selu_op
}  // namespace

OpDef def_Selu() {
  using namespace selu_op;
  return def_from_rows("", "Selu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
