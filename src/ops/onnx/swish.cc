// Swish: y = x * sigmoid(alpha * x), alpha defaulting to 1. float16/bfloat16 go through float.
#include "kernels/fast_math.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace swish_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const double alpha = ctx.attr_float("alpha", 1.0f);
  return make_float_map("Swish", [alpha](auto v) {
    using T = decltype(v);
    return v * kernels::fast_sigmoid(static_cast<T>(alpha) * v);
  });
}
constexpr SignatureText kRows[] = {{24, "X: T -> Y: T; T = floats bfloat16; alpha: float = 1.0"}};

}  // namespace swish_op
}  // namespace

OpDef def_Swish() {
  using namespace swish_op;
  return def_from_rows("", "Swish", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
