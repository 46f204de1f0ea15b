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

const OpDef& def_Ceil() {
  static const OpDef def = float_map_def<ceil_op::CeilFn>(kMapRowsSince1XY);
  return def;
}

}  // namespace bough::ops
