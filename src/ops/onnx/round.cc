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
constexpr SignatureText kRows[] = {{11, "X: T -> Y: T; T = floats"},
                                   {22, "X: T -> Y: T; T = floats bfloat16"}};
}  // namespace round_op
}  // namespace

const OpDef& def_Round() {
  static const OpDef def = float_map_def<round_op::RoundFn>(round_op::kRows);
  return def;
}

}  // namespace bough::ops
