// Softsign: y = x / (1 + |x|).
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace softsign_op {
struct SoftsignFn {
  static constexpr char kName[] = "Softsign";
  template <typename T>
  T operator()(T v) const {
    return v / (T(1) + std::abs(v));
  }
};
constexpr SignatureText kRows[] = {{1, "input: T -> output: T; T = floats"},
                                   {22, "input: T -> output: T; T = floats bfloat16"}};
}  // namespace softsign_op
}  // namespace

const OpDef& def_Softsign() {
  static const OpDef def = float_map_def<softsign_op::SoftsignFn>(softsign_op::kRows);
  return def;
}

}  // namespace bough::ops
