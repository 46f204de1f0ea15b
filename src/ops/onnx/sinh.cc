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

OpDef def_Sinh() { return float_map_def<sinh_op::SinhFn>(kLaterMapRows<9>); }

}  // namespace bough::ops
