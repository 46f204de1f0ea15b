// RandomNormalLike: RandomNormal shaped like the input, with the input's element
// type unless `dtype` is given (an input that is not float16/float/double, or bfloat16
// from 22, needs one).
#include "ops/onnx/random_common.h"

namespace bough::ops {

namespace {
namespace random_normal_like_op {

constexpr SignatureText kRows[] = {
    {1,
     "input: T1 -> output: T2; T1 = all, T2 = floats; dtype: int?, mean: "
     "float = 0.0, scale: float = 1.0, seed: float?"},
    {22,
     "input: T1 -> output: T2; T1 = all_ir4, T2 = floats bfloat16; dtype: "
     "int?, mean: float = 0.0, scale: float = 1.0, seed: float?"}};

}  // namespace random_normal_like_op
}  // namespace

OpDef def_RandomNormalLike() {
  using namespace random_normal_like_op;
  return random_fill_def("RandomNormalLike", Distribution::Normal, true, kRows);
}

}  // namespace bough::ops
