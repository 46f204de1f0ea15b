// Exp: y = e^x, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace exp_op {
struct ExpFn {
  static constexpr kernels::FastFn kFast = kernels::FastFn::Exp;
  static constexpr int64_t kWork = kernels::kExpWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_exp(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<ExpFn>(x, out, pool, "Exp");
}
}  // namespace exp_op
}  // namespace

const OpDef& def_Exp() {
  using namespace exp_op;
  static const OpDef def{"",
                         "Exp",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats; consumed_inputs: ints?"},
                          {6, "input: T -> output: T; T = floats"},
                          {13, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
