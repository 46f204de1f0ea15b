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

const OpDef& def_Exp() {
  static const OpDef def = float_map_def<exp_op::ExpFn>(kMapRowsSince1);
  return def;
}

}  // namespace bough::ops
