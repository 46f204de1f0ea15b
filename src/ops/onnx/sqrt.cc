// Sqrt: y = sqrt(x), elementwise (NaN for negative x).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sqrt_op {
struct SqrtFn {
  template <typename T>
  T operator()(T v) const {
    return std::sqrt(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SqrtFn>(x, out, pool, "Sqrt");
}
}  // namespace sqrt_op
}  // namespace

const OpDef& def_Sqrt() {
  using namespace sqrt_op;
  static const OpDef def{"",
                         "Sqrt",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                          {6, "X: T -> Y: T; T = floats"},
                          {13, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
