// RandomNormal: a tensor of the `shape` attribute, each element drawn from the
// normal distribution of `mean` and standard deviation `scale`; element type `dtype`
// (float by default). Seeded by `seed` when given (random_common.h).
#include "ops/onnx/random_common.h"

namespace bough::ops {

namespace {
namespace random_normal_op {

constexpr SignatureText kRows[] = {
    {1,
     "-> output: T; T = floats; dtype: int = 1, mean: float = 0.0, scale: "
     "float = 1.0, seed: float?, shape: ints"},
    {22,
     "-> output: T; T = floats bfloat16; dtype: int = 1, mean: float = 0.0, "
     "scale: float = 1.0, seed: float?, shape: ints"}};

}  // namespace random_normal_op
}  // namespace

OpDef def_RandomNormal() {
  using namespace random_normal_op;
  return random_fill_def("RandomNormal", Distribution::Normal, false, kRows);
}

}  // namespace bough::ops
