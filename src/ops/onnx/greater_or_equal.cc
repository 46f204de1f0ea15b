// GreaterOrEqual: A >= B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace greater_or_equal_op {
struct GreaterOrEqualFn {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a >= b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<GreaterOrEqualFn>(a, b, out, pool, "GreaterOrEqual");
}
}  // namespace greater_or_equal_op
}  // namespace

const OpDef& def_GreaterOrEqual() {
  using namespace greater_or_equal_op;
  static const OpDef def{"",
                         "GreaterOrEqual",
                         {12, 16},
                         2,
                         2,
                         1,
                         1,
                         make_binary<compute>,
                         infer_broadcast_bool,
                         {{12, "A: T, B: T -> C: T1; T = numeric, T1 = bool"},
                          {16, "A: T, B: T -> C: T1; T = numeric bfloat16, T1 = bool"}}};
  return def;
}

}  // namespace bough::ops
