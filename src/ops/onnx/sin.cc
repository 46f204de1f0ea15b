// Sin: sine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace sin_op {
struct SinFn {
  static constexpr char kName[] = "Sin";
  template <typename T>
  T operator()(T v) const {
    return std::sin(v);
  }
};
}  // namespace sin_op
}  // namespace

OpDef def_Sin() { return float_map_def<sin_op::SinFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
