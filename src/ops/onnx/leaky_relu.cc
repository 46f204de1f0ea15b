// LeakyRelu: y = x for x >= 0, alpha * x otherwise (alpha defaults to 0.01).
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace leaky_relu_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 0.01f);
  return make_float_map("LeakyRelu", [alpha](auto v) { return v < 0 ? v * alpha : v; });
}
constexpr SignatureText kRows[] = {
    {1, "X: T -> Y: T; T = floats; alpha: float = 0.009999999776482582, consumed_inputs: ints?"},
    {6, "X: T -> Y: T; T = floats; alpha: float = 0.009999999776482582"},
    {16, "X: T -> Y: T; T = floats bfloat16; alpha: float = 0.009999999776482582"}};

}  // namespace leaky_relu_op
}  // namespace

OpDef def_LeakyRelu() {
  using namespace leaky_relu_op;
  return def_from_rows("", "LeakyRelu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
