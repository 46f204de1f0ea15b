// Atanh: inverse hyperbolic tangent, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace atanh_op {
struct AtanhFn {
  template <typename T>
  T operator()(T v) const {
    return std::atanh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AtanhFn>(x, out, pool, "Atanh");
}
}  // namespace atanh_op
}  // namespace

const OpDef& def_Atanh() {
  using namespace atanh_op;
  static const OpDef def{"",
                         "Atanh",
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
