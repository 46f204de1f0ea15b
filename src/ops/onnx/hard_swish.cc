// HardSwish: y = x * max(0, min(1, x / 6 + 0.5)).
#include <algorithm>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace hard_swish_op {
struct HardSwishFn {
  static constexpr char kName[] = "HardSwish";
  template <typename T>
  T operator()(T v) const {
    return v * std::clamp(v / T(6) + T(0.5), T(0), T(1));
  }
};
}  // namespace hard_swish_op
}  // namespace

OpDef def_HardSwish() { return float_map_def<hard_swish_op::HardSwishFn>(kLaterMapRowsXY<14>); }

}  // namespace bough::ops
