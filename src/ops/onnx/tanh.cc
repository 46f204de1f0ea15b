// Tanh: hyperbolic tangent, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace tanh_op {
struct TanhFn {
  static constexpr kernels::FastFn kFast = kernels::FastFn::Tanh;
  static constexpr int64_t kWork = kernels::kTanhWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_tanh(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<TanhFn>(x, out, pool, "Tanh");
}
}  // namespace tanh_op
}  // namespace

const OpDef& def_Tanh() {
  using namespace tanh_op;
  static const OpDef def{"",
                         "Tanh",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "input: T -> output: T; T = floats; consumed_inputs: ints?"},
                          {6, "input: T -> output: T; T = floats"},
                          {13, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
