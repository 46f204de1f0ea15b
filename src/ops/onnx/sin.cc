// Sin: sine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sin_op {
struct SinFn {
  template <typename T>
  T operator()(T v) const {
    return std::sin(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SinFn>(x, out, pool, "Sin");
}
}  // namespace sin_op
}  // namespace

const OpDef& def_Sin() {
  using namespace sin_op;
  static const OpDef def{"",
                         "Sin",
                         {7, 22},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{7, "input: T -> output: T; T = floats"},
                          {22, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
