// Reciprocal: y = 1 / x, elementwise.
#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace reciprocal_op {
struct ReciprocalFn {
  static constexpr char kName[] = "Reciprocal";
  template <typename T>
  T operator()(T v) const {
    return T(1) / v;
  }
};
}  // namespace reciprocal_op
}  // namespace

OpDef def_Reciprocal() { return float_map_def<reciprocal_op::ReciprocalFn>(kMapRowsSince1XY); }

}  // namespace bough::ops
