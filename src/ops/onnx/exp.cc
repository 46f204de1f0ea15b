// Exp: y = e^x, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace exp_op {
struct ExpFn : FastMapFn<kernels::FastFn::Exp, kernels::kExpWork> {
  static constexpr char kName[] = "Exp";
};
}  // namespace exp_op
}  // namespace

OpDef def_Exp() { return float_map_def<exp_op::ExpFn>(kMapRowsSince1); }

}  // namespace bough::ops
