// Equal: A == B elementwise with a bool result, multidirectional broadcasting (legacy
// broadcast/axis before opset 7).
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace equal_op {
struct EqualFn {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a == b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  compare<EqualFn>(a, b, out, pool, "Equal");
}
constexpr SignatureText kRows[] = {
    {1, "A: T, B: T -> C: T1; T = int32 int64 bool, T1 = bool; axis: int?, broadcast: int = 0"},
    {7, "A: T, B: T -> C: T1; T = int32 int64 bool, T1 = bool"},
    {11, "A: T, B: T -> C: T1; T = numeric bool, T1 = bool"},
    {13, "A: T, B: T -> C: T1; T = numeric bfloat16 bool, T1 = bool"},
    {19, "A: T, B: T -> C: T1; T = numeric bfloat16 bool string, T1 = bool"}};

}  // namespace equal_op
}  // namespace

OpDef def_Equal() {
  using namespace equal_op;
  return def_from_rows("", "Equal", make_binary<compute>, infer_broadcast_bool, kRows);
}

}  // namespace bough::ops
