// Cosh: hyperbolic cosine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace cosh_op {
struct CoshFn {
  template <typename T>
  T operator()(T v) const {
    return std::cosh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<CoshFn>(x, out, pool, "Cosh");
}
}  // namespace cosh_op
}  // namespace

const OpDef& def_Cosh() {
  using namespace cosh_op;
  static const OpDef def{"",
                         "Cosh",
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
