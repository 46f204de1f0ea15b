// Tan: tangent, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace tan_op {
struct TanFn {
  template <typename T>
  T operator()(T v) const {
    return std::tan(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<TanFn>(x, out, pool, "Tan");
}
}  // namespace tan_op
}  // namespace

const OpDef& def_Tan() {
  using namespace tan_op;
  static const OpDef def{"",
                         "Tan",
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
