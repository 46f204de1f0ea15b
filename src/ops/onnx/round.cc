// Round: to the nearest integer, halves to even (nearbyint in the default rounding mode).
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace round_op {
struct RoundFn {
  static constexpr char kName[] = "Round";
  template <typename T>
  T operator()(T v) const {
    return std::nearbyint(v);
  }
};
}  // namespace round_op
}  // namespace

OpDef def_Round() { return float_map_def<round_op::RoundFn>(kLaterMapRowsXY<11>); }

}  // namespace bough::ops
