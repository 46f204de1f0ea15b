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

OpDef def_Floor() { return float_map_def<floor_op::FloorFn>(kMapRowsSince1XY); }

}  // namespace bough::ops
