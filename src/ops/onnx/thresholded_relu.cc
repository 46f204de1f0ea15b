// ThresholdedRelu: y = x for x > alpha, 0 otherwise (alpha defaults to 1).
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace thresholded_relu_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const float alpha = ctx.attr_float("alpha", 1.0f);
  return make_float_map("ThresholdedRelu", [alpha](auto v) {
    using T = decltype(v);
    return v > static_cast<T>(alpha) ? v : T(0);
  });
}
constexpr SignatureText kRows[] = {{10, "X: T -> Y: T; T = floats; alpha: float = 1.0"},
                                   {22, "X: T -> Y: T; T = floats bfloat16; alpha: float = 1.0"}};

}  // namespace thresholded_relu_op
}  // namespace

OpDef def_ThresholdedRelu() {
  using namespace thresholded_relu_op;
  return def_from_rows("", "ThresholdedRelu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
