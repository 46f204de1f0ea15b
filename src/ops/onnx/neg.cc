// Neg: y = -x, elementwise.
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace neg_op {
struct NegFn {
  template <typename T>
  T operator()(T v) const {
    return -v;
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<NegFn>(x, out, pool, "Neg");
}
constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                                   {6, "X: T -> Y: T; T = floats ints"},
                                   {13, "X: T -> Y: T; T = floats ints bfloat16"}};

}  // namespace neg_op
}  // namespace

OpDef def_Neg() {
  using namespace neg_op;
  return def_from_rows("", "Neg", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
