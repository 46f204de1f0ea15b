// Atan: arctangent, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace atan_op {
struct AtanFn {
  template <typename T>
  T operator()(T v) const {
    return std::atan(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AtanFn>(x, out, pool, "Atan");
}
}  // namespace atan_op
}  // namespace

const OpDef& def_Atan() {
  using namespace atan_op;
  static const OpDef def{"",
                         "Atan",
                         {7, 22},
                         1,
                         1,
                         1,
                         1,
                         make_unary<compute>,
                         infer_same_as_first,
                         {{7, "input: T -> output: T; T = floats"},
                          {22, "input: T -> output: T; T = floats bfloat16"}}};
  return def;
}

}  // namespace bough::ops
