// Sub: A - B, multidirectional broadcasting (legacy broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
struct SubFn {
  template <typename T>
  auto operator()(T a, T b) const {
    return a - b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  arith<SubFn>(a, b, out, pool, "Sub");
}
}  // namespace

const OpDef& def_Sub() {
  static const OpDef def{
      "",
      "Sub",
      {1, 6, 7, 13, 14},
      2,
      2,
      1,
      1,
      make_binary<compute>,
      infer_broadcast,
      {{1,
        "A: T, B: T -> C: T; T = floats; axis: int?, broadcast: int = 0, consumed_inputs: ints?"},
       {6,
        "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64; axis: int?, broadcast: int = 0"},
       {7, "A: T, B: T -> C: T; T = floats int32 int64 uint32 uint64"},
       {13, "A: T, B: T -> C: T; T = floats bfloat16 int32 int64 uint32 uint64"},
       {14, "A: T, B: T -> C: T; T = numeric bfloat16"}}};
  return def;
}

}  // namespace bough::ops
