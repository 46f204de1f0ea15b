// Elu: y = x for x >= 0, alpha * (exp(x) - 1) otherwise (alpha defaults to 1).
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace elu_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  return make_float_map("Elu", [alpha](auto v) {
    using T = decltype(v);
    return v < 0 ? static_cast<T>(alpha) * std::expm1(v) : v;
  });
}
constexpr SignatureText kRows[] = {
    {1, "X: T -> Y: T; T = floats; alpha: float = 1.0, consumed_inputs: ints?"},
    {6, "X: T -> Y: T; T = floats; alpha: float = 1.0"},
    {22, "X: T -> Y: T; T = floats bfloat16; alpha: float = 1.0"}};

}  // namespace elu_op
}  // namespace

OpDef def_Elu() {
  using namespace elu_op;
  return def_from_rows("", "Elu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
