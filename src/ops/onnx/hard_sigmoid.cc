// HardSigmoid: y = max(0, min(1, alpha * x + beta)) (alpha 0.2, beta 0.5 by default).
#include <algorithm>

#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace hard_sigmoid_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 0.2f);
  const float beta = ctx.attr_float("beta", 0.5f);
  return make_float_map("HardSigmoid", [alpha, beta](auto v) {
    using T = decltype(v);
    return std::clamp(static_cast<T>(alpha) * v + static_cast<T>(beta), T(0), T(1));
  });
}
constexpr SignatureText kRows[] = {
    {1,
     "X: T -> Y: T; T = floats; alpha: float = 0.20000000298023224, beta: float = 0.5, "
     "consumed_inputs: ints?"},
    {6, "X: T -> Y: T; T = floats; alpha: float = 0.20000000298023224, beta: float = 0.5"},
    {22,
     "X: T -> Y: T; T = floats bfloat16; alpha: float = 0.20000000298023224, beta: float = "
     "0.5"}};

}  // namespace hard_sigmoid_op
}  // namespace

OpDef def_HardSigmoid() {
  using namespace hard_sigmoid_op;
  return def_from_rows("", "HardSigmoid", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
