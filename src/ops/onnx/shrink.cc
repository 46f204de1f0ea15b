// Shrink: y = x + bias for x < -lambd, x - bias for x > lambd, 0 otherwise (bias 0,
// lambd 0.5 by default). Any numeric type; integer results are the float result converted,
// saturating.
#include "ops/def_from_rows.h"
#include "ops/onnx/activation.h"
#include "ops/shape_infer.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace shrink_op {
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const double bias = ctx.attr_float("bias", 0.0f);
  const double lambd = ctx.attr_float("lambd", 0.5f);
  return make_numeric_map("Shrink", [bias, lambd](auto v) {
    const auto x = static_cast<double>(v);
    return util::from_double<decltype(v)>(x < -lambd ? x + bias : (x > lambd ? x - bias : 0.0));
  });
}
constexpr SignatureText kRows[] = {
    {9, "input: T -> output: T; T = numeric; bias: float = 0.0, lambd: float = 0.5"}};

}  // namespace shrink_op
}  // namespace

OpDef def_Shrink() {
  using namespace shrink_op;
  return def_from_rows("", "Shrink", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
