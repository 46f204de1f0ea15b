// Relu: y = max(0, x), elementwise; NaN stays NaN. Signed integers from opset 14.
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace relu_op {
struct ReluFn {
  template <typename T>
  T operator()(T v) const {
    return v < T(0) ? T(0) : v;
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<ReluFn>(x, out, pool, "Relu");
}
constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                                   {6, "X: T -> Y: T; T = floats"},
                                   {13, "X: T -> Y: T; T = floats bfloat16"},
                                   {14, "X: T -> Y: T; T = floats ints bfloat16"}};

}  // namespace relu_op
}  // namespace

OpDef def_Relu() {
  using namespace relu_op;
  return def_from_rows("", "Relu", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
