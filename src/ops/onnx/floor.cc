// Floor: y = floor(x), elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace floor_op {
struct FloorFn {
  template <typename T>
  T operator()(T v) const {
    return std::floor(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<FloorFn>(x, out, pool, "Floor");
}
}  // namespace floor_op
}  // namespace

const OpDef& def_Floor() {
  using namespace floor_op;
  static const OpDef def{"",
                         "Floor",
                         {1, 6, 13},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                          {6, "X: T -> Y: T; T = floats"},
                          {13, "X: T -> Y: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
