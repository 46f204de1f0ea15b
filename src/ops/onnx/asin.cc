// Asin: arcsine, elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace asin_op {
struct AsinFn {
  static constexpr char kName[] = "Asin";
  template <typename T>
  T operator()(T v) const {
    return std::asin(v);
  }
};
}  // namespace asin_op
}  // namespace

OpDef def_Asin() { return float_map_def<asin_op::AsinFn>(kLaterMapRows<7>); }

}  // namespace bough::ops
