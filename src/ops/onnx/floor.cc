// Floor: y = floor(x), elementwise.
#include <cmath>

#include "ops/elementwise_defs.h"

namespace bough::ops {

namespace {
namespace floor_op {
struct FloorFn {
  static constexpr char kName[] = "Floor";
  template <typename T>
  T operator()(T v) const {
    return std::floor(v);
  }
};
}  // namespace floor_op
}  // namespace

const OpDef& def_Floor() {
  static const OpDef def = float_map_def<floor_op::FloorFn>(kMapRowsSince1XY);
  return def;
}

}  // namespace bough::ops
