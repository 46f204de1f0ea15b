// Sigmoid: y = 1 / (1 + e^-x), elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace sigmoid_op {
struct SigmoidFn {
  static constexpr kernels::FastFn kFast = kernels::FastFn::Sigmoid;
  static constexpr int64_t kWork = kernels::kSigmoidWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_sigmoid(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<SigmoidFn>(x, out, pool, "Sigmoid");
}
}  // namespace sigmoid_op
}  // namespace

const OpDef& def_Sigmoid() {
  using namespace sigmoid_op;
  static const OpDef def{"",
                         "Sigmoid",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                          {6, "X: T -> Y: T; T = floats"},
                          {13, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
