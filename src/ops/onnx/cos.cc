// Cos: cosine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace cos_op {
struct CosFn {
  static constexpr char kName[] = "Cos";
  template <typename T>
  T operator()(T v) const {
    return std::cos(v);
  }
};
}  // namespace cos_op
}  // namespace

OpDef def_Cos() { return float_map_def<cos_op::CosFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
