// Sqrt: y = sqrt(x), elementwise (NaN for negative x).
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace sqrt_op {
struct SqrtFn {
  static constexpr char kName[] = "Sqrt";
  template <typename T>
  T operator()(T v) const {
    return std::sqrt(v);
  }
};
}  // namespace sqrt_op
}  // namespace

const OpDef& def_Sqrt() {
  static const OpDef def = float_map_def<sqrt_op::SqrtFn>(kMapRowsSince1XY);
  return def;
}

}  // namespace bough::ops
