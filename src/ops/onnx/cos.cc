// Cos: cosine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace cos_op {
struct CosFn {
  template <typename T>
  T operator()(T v) const {
    return std::cos(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<CosFn>(x, out, pool, "Cos");
}
}  // namespace cos_op
}  // namespace

const OpDef& def_Cos() {
  using namespace cos_op;
  static const OpDef def{"",
                         "Cos",
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
