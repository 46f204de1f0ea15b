// Cosh: hyperbolic cosine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace cosh_op {
struct CoshFn {
  static constexpr char kName[] = "Cosh";
  template <typename T>
  T operator()(T v) const {
    return std::cosh(v);
  }
};
}  // namespace cosh_op
}  // namespace

OpDef def_Cosh() { return float_map_def<cosh_op::CoshFn>(kLaterMapRows<9>); }

}  // namespace bough::ops
