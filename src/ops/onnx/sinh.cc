// Sinh: hyperbolic sine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace sinh_op {
struct SinhFn {
  static constexpr char kName[] = "Sinh";
  template <typename T>
  T operator()(T v) const {
    return std::sinh(v);
  }
};
}  // namespace sinh_op
}  // namespace

const OpDef& def_Sinh() {
  static const OpDef def = float_map_def<sinh_op::SinhFn>(kLaterMapRows<9>);
  return def;
}

}  // namespace bough::ops
