// Softsign: y = x / (1 + |x|).
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
struct SoftsignFn {
  template <typename T>
  T operator()(T v) const {
    return v / (T(1) + std::abs(v));
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SoftsignFn>(x, out, pool, "Softsign");
}
}  // namespace

const OpDef& def_Softsign() {
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
