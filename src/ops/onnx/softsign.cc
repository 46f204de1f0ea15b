// Softsign: y = x / (1 + |x|).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace softsign_op {
struct SoftsignFn {
  template <typename T>
  T operator()(T v) const {
    return v / (T(1) + std::abs(v));
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SoftsignFn>(x, out, pool, "Softsign");
}
}  // namespace softsign_op
}  // namespace

const OpDef& def_Softsign() {
  using namespace softsign_op;
  static const OpDef def{"",
                         "Softsign",
                         {1, 22},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats"},
                          {22, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
