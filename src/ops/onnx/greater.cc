// Greater: A > B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace greater_op {
struct GreaterFn {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a > b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<GreaterFn>(a, b, out, pool, "Greater");
}
}  // namespace greater_op
}  // namespace

const OpDef& def_Greater() {
  using namespace greater_op;
  static const OpDef def{
      "",
      "Greater",
      {1, 7, 9, 13},
      2,
      2,
      1,
      1,
      make_binary<compute>,
      infer_broadcast_bool,
      {{1, "A: T, B: T -> C: T1; T = floats, T1 = bool; axis: int?, broadcast: int = 0"},
       {7, "A: T, B: T -> C: T1; T = floats, T1 = bool"},
       {9, "A: T, B: T -> C: T1; T = numeric, T1 = bool"},
       {13, "A: T, B: T -> C: T1; T = numeric bfloat16, T1 = bool"}}};
  return def;
}

}  // namespace bough::ops
