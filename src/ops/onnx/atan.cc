// Atan: arctangent, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace atan_op {
struct AtanFn {
  static constexpr char kName[] = "Atan";
  template <typename T>
  T operator()(T v) const {
    return std::atan(v);
  }
};
}  // namespace atan_op
}  // namespace

OpDef def_Atan() { return float_map_def<atan_op::AtanFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
