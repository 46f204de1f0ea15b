// Ceil: y = ceil(x), elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace ceil_op {
struct CeilFn {
  template <typename T>
  T operator()(T v) const {
    return std::ceil(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<CeilFn>(x, out, pool, "Ceil");
}
}  // namespace ceil_op
}  // namespace

const OpDef& def_Ceil() {
  using namespace ceil_op;
  static const OpDef def{"",
                         "Ceil",
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
