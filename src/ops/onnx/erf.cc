// Erf: the error function, elementwise.
#include "kernels/fast_math.h"
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace erf_op {
using ErfFn = FastMapFn<kernels::FastFn::Erf, kernels::kErfWork>;
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<ErfFn>(x, out, pool, "Erf");
}
constexpr SignatureText kRows[] = {{9, "input: T -> output: T; T = numeric"},
                                   {13, "input: T -> output: T; T = numeric bfloat16"}};

}  // namespace erf_op
}  // namespace

OpDef def_Erf() {
  using namespace erf_op;
  return def_from_rows("", "Erf", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
