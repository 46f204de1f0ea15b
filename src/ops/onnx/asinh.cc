// Asinh: inverse hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace asinh_op {
struct AsinhFn {
  template <typename T>
  T operator()(T v) const {
    return std::asinh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AsinhFn>(x, out, pool, "Asinh");
}
}  // namespace asinh_op
}  // namespace

const OpDef& def_Asinh() {
  using namespace asinh_op;
  static const OpDef def{"",
                         "Asinh",
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
