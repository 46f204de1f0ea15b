// Sigmoid: y = 1 / (1 + e^-x), elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace sigmoid_op {
struct SigmoidFn : FastMapFn<kernels::FastFn::Sigmoid, kernels::kSigmoidWork> {
  static constexpr char kName[] = "Sigmoid";
};
}  // namespace sigmoid_op
}  // namespace

OpDef def_Sigmoid() { return float_map_def<sigmoid_op::SigmoidFn>(kMapRowsSince1XY); }

}  // namespace bough::ops
