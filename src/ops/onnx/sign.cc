// Sign: -1, 0 or 1 by the sign of x, elementwise; NaN stays NaN.
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sign_op {
struct SignFn {
  template <typename T>
  T operator()(T v) const {
    if (v != v) return v;  // NaN
    return static_cast<T>((T(0) < v) - (v < T(0)));
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<SignFn>(x, out, pool, "Sign");
}
constexpr SignatureText kRows[] = {{9, "input: T -> output: T; T = numeric"},
                                   {13, "input: T -> output: T; T = numeric bfloat16"}};

}  // namespace sign_op
}  // namespace

OpDef def_Sign() {
  using namespace sign_op;
  return def_from_rows("", "Sign", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
