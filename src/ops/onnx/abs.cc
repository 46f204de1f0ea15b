// Abs: y = |x|, elementwise, for every numeric type (unsigned values pass through).
#include <cmath>
#include <type_traits>

#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace abs_op {
struct AbsFn {
  template <typename T>
  T operator()(T v) const {
    if constexpr (std::is_floating_point_v<T>)
      return std::fabs(v);
    else if constexpr (std::is_unsigned_v<T>)
      return v;
    else
      return static_cast<T>(v < 0 ? -v : v);
  }
};
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  numeric_unary<AbsFn>(x, out, pool, "Abs");
}
constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = floats; consumed_inputs: ints?"},
                                   {6, "X: T -> Y: T; T = numeric"},
                                   {13, "X: T -> Y: T; T = numeric bfloat16"}};

}  // namespace abs_op
}  // namespace

OpDef def_Abs() {
  using namespace abs_op;
  return def_from_rows("", "Abs", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
