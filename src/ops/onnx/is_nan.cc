// IsNaN: true where the element is NaN.
#include <cmath>

#include "ops/def_from_rows.h"
#include "ops/onnx/float_test.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace is_nan_op {
Tensor compute(const Tensor& x, util::ThreadPool& pool) {
  return float_test(x, pool, "IsNaN", [](auto v) { return std::isnan(v); });
}
constexpr SignatureText kRows[] = {{9, "X: T1 -> Y: T2; T1 = floats, T2 = bool"},
                                   {13, "X: T1 -> Y: T2; T1 = floats bfloat16, T2 = bool"},
                                   {20, "X: T1 -> Y: T2; T1 = floats bfloat16 float8s, T2 = bool"}};

}  // namespace is_nan_op
}  // namespace

OpDef def_IsNaN() {
  using namespace is_nan_op;
  return def_from_rows("", "IsNaN", make_unary<compute>, infer_float_test, kRows);
}

}  // namespace bough::ops
