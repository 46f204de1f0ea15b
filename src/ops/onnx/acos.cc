// Acos: arccosine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace acos_op {
struct AcosFn {
  template <typename T>
  T operator()(T v) const {
    return std::acos(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AcosFn>(x, out, pool, "Acos");
}
}  // namespace acos_op
}  // namespace

const OpDef& def_Acos() {
  using namespace acos_op;
  static const OpDef def{"",
                         "Acos",
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
