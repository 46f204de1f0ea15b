// Exp: y = e^x, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace exp_op {
struct ExpFn {
  static constexpr char kName[] = "Exp";
  static constexpr kernels::FastFn kFast = kernels::FastFn::Exp;
  static constexpr int64_t kWork = kernels::kExpWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_exp(v);
  }
};
}  // namespace exp_op
}  // namespace

const OpDef& def_Exp() {
  static const OpDef def = float_map_def<exp_op::ExpFn>(kMapRowsSince1);
  return def;
}

}  // namespace bough::ops
