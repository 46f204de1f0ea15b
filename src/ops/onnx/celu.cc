// Celu: y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1)); alpha (default 1) must not be 0.
#include <algorithm>
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace celu_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  if (alpha == 0) ctx.invalid("Celu alpha must not be 0");
  return make_float_map("Celu", [alpha](auto v) {
    using T = decltype(v);
    const T a = static_cast<T>(alpha);
    return std::max(T(0), v) + std::min(T(0), a * std::expm1(v / a));
  });
}
constexpr SignatureText kRows[] = {{12, "X: T -> Y: T; T = float; alpha: float = 1.0"},
                                   {28, "X: T -> Y: T; T = floats bfloat16; alpha: float = 1.0"}};

}  // namespace celu_op
}  // namespace

OpDef def_Celu() {
  using namespace celu_op;
  return def_from_rows("", "Celu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
