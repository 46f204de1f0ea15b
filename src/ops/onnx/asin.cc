// Asin: arcsine, elementwise.
#include <cmath>

#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace asin_op {
struct AsinFn {
  template <typename T>
  T operator()(T v) const {
    return std::asin(v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  float_unary<AsinFn>(x, out, pool, "Asin");
}
}  // namespace asin_op
}  // namespace

const OpDef& def_Asin() {
  using namespace asin_op;
  static const OpDef def{"",
                         "Asin",
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
