// Ceil: y = ceil(x), elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace ceil_op {
struct CeilFn {
  static constexpr char kName[] = "Ceil";
  template <typename T>
  T operator()(T v) const {
    return std::ceil(v);
  }
};
}  // namespace ceil_op
}  // namespace

OpDef def_Ceil() { return float_map_def<ceil_op::CeilFn>(kMapRowsSince1XY); }

}  // namespace bough::ops
