// Tan: tangent, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace tan_op {
struct TanFn {
  static constexpr char kName[] = "Tan";
  template <typename T>
  T operator()(T v) const {
    return std::tan(v);
  }
};
}  // namespace tan_op
}  // namespace

OpDef def_Tan() { return float_map_def<tan_op::TanFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
