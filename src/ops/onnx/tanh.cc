// Tanh: hyperbolic tangent, elementwise.
#include "kernels/fast_math.h"
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace tanh_op {
struct TanhFn {
  static constexpr char kName[] = "Tanh";
  static constexpr kernels::FastFn kFast = kernels::FastFn::Tanh;
  static constexpr int64_t kWork = kernels::kTanhWork;
  template <typename T>
  T operator()(T v) const {
    return kernels::fast_tanh(v);
  }
};
}  // namespace tanh_op
}  // namespace

const OpDef& def_Tanh() {
  static const OpDef def = float_map_def<tanh_op::TanhFn>(kMapRowsSince1);
  return def;
}

}  // namespace bough::ops
