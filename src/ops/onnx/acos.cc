// Acos: arccosine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace acos_op {
struct AcosFn {
  static constexpr char kName[] = "Acos";
  template <typename T>
  T operator()(T v) const {
    return std::acos(v);
  }
};
}  // namespace acos_op
}  // namespace

OpDef def_Acos() { return float_map_def<acos_op::AcosFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
