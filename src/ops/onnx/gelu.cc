// Gelu: y = 0.5 * x * (1 + erf(x / sqrt(2))); with approximate="tanh",
// y = 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))).
#include <string>

#include "kernels/fast_math.h"
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace gelu_op {
using GeluFn = FastMapFn<kernels::FastFn::Gelu, kernels::kGeluWork>;
using GeluTanhFn = FastMapFn<kernels::FastFn::GeluTanh, kernels::kGeluTanhWork>;
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<GeluFn>(x, out, pool, "Gelu");
}
void compute_tanh(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<GeluTanhFn>(x, out, pool, "Gelu");
}
std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const std::string approximate = ctx.attr_string("approximate", "none");
  if (approximate == "tanh") return make_unary<compute_tanh>(ctx);
  if (approximate != "none") ctx.invalid("Gelu approximate must be \"none\" or \"tanh\"");
  return make_unary<compute>(ctx);
}
constexpr SignatureText kRows[] = {
    {20, "X: T -> Y: T; T = floats bfloat16; approximate: string = none"}};

}  // namespace gelu_op
}  // namespace

OpDef def_Gelu() {
  using namespace gelu_op;
  return def_from_rows("", "Gelu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
