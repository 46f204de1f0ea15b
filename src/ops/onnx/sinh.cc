// Sinh: hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sinh_op {
struct SinhFn {
  template <typename T>
  T operator()(T v) const {
    return std::sinh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SinhFn>(x, out, pool, "Sinh");
}
}  // namespace sinh_op
}  // namespace

const OpDef& def_Sinh() {
  using namespace sinh_op;
  static const OpDef def{"",
                         "Sinh",
                         {9, 22},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{9, "input: T -> output: T; T = floats"},
                          {22, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
