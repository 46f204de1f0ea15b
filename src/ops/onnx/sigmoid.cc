// Sigmoid: y = 1 / (1 + e^-x), elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace sigmoid_op {
struct SigmoidFn {
  static constexpr char kName[] = "Sigmoid";
  static constexpr kernels::FastFn kFast = kernels::FastFn::Sigmoid;
  static constexpr int64_t kWork = kernels::kSigmoidWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_sigmoid(v);
  }
};
}  // namespace sigmoid_op
}  // namespace

const OpDef& def_Sigmoid() {
  static const OpDef def = float_map_def<sigmoid_op::SigmoidFn>(kMapRowsSince1XY);
  return def;
}

}  // namespace bough::ops
