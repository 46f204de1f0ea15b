// RandomUniform: a tensor of the `shape` attribute, each element drawn uniformly
// from [low, high) (after rounding to the element type `dtype`, float by default). Seeded
// by `seed` when given (random_common.h).
#include "ops/onnx/random_common.h"

namespace bough::ops {

namespace {
namespace random_uniform_op {

constexpr SignatureText kRows[] = {
    {1,
     "-> output: T; T = floats; dtype: int = 1, high: float = 1.0, low: "
     "float = 0.0, seed: float?, shape: ints"},
    {22,
     "-> output: T; T = floats bfloat16; dtype: int = 1, high: float = 1.0, "
     "low: float = 0.0, seed: float?, shape: ints"}};

}  // namespace random_uniform_op
}  // namespace

OpDef def_RandomUniform() {
  using namespace random_uniform_op;
  return random_fill_def("RandomUniform", Distribution::Uniform, false, kRows);
}

}  // namespace bough::ops
