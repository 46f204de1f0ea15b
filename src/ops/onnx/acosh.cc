// Acosh: inverse hyperbolic cosine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace acosh_op {
struct AcoshFn {
  template <typename T>
  T operator()(T v) const {
    return std::acosh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AcoshFn>(x, out, pool, "Acosh");
}
}  // namespace acosh_op
}  // namespace

const OpDef& def_Acosh() {
  using namespace acosh_op;
  static const OpDef def{"",
                         "Acosh",
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
