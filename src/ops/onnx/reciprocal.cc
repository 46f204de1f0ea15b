// Reciprocal: y = 1 / x, elementwise.
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace reciprocal_op {
struct ReciprocalFn {
  template <typename T>
  T operator()(T v) const {
    return T(1) / v;
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<ReciprocalFn>(x, out, pool, "Reciprocal");
}
}  // namespace reciprocal_op
}  // namespace

const OpDef& def_Reciprocal() {
  using namespace reciprocal_op;
  static const OpDef def{"",
                         "Reciprocal",
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
