// RandomUniformLike: RandomUniform shaped like the input, with the input's element
// type unless `dtype` is given (an input that is not float16/float/double, or bfloat16
// from 22, needs one).
#include "ops/onnx/random_common.h"

namespace bough::ops {

namespace {
namespace random_uniform_like_op {

constexpr SignatureText kRows[] = {
    {1,
     "input: T1 -> output: T2; T1 = all, T2 = floats; dtype: int?, high: "
     "float = 1.0, low: float = 0.0, seed: float?"},
    {22,
     "input: T1 -> output: T2; T1 = all_ir4, T2 = floats bfloat16; dtype: "
     "int?, high: float = 1.0, low: float = 0.0, seed: float?"}};

}  // namespace random_uniform_like_op
}  // namespace

OpDef def_RandomUniformLike() {
  using namespace random_uniform_like_op;
  return random_fill_def("RandomUniformLike", Distribution::Uniform, true, kRows);
}

}  // namespace bough::ops
