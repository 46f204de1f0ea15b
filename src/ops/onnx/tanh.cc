// Tanh: hyperbolic tangent, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace tanh_op {
struct TanhFn : FastMapFn<kernels::FastFn::Tanh, kernels::kTanhWork> {
  static constexpr char kName[] = "Tanh";
};
}  // namespace tanh_op
}  // namespace

OpDef def_Tanh() { return float_map_def<tanh_op::TanhFn>(kMapRowsSince1); }

}  // namespace bough::ops
