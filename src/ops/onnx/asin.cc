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

const OpDef& def_Asin() {
  static const OpDef def = float_map_def<asin_op::AsinFn>(kLaterMapRows<7>);
  return def;
}

}  // namespace bough::ops
