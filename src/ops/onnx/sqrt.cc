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

OpDef def_Sqrt() { return float_map_def<sqrt_op::SqrtFn>(kMapRowsSince1XY); }

}  // namespace bough::ops
