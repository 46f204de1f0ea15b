// BitwiseNot: ~X on integers.
#include "ops/def_from_rows.h"
#include "ops/onnx/bitwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bitwise_not_op {
Tensor compute(const Tensor& x, util::ThreadPool& pool) {
  return kernels::visit_integer(x.type(), "BitwiseNot", [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::unary_map<T, T>(x, x.type(), pool, [](T v) { return static_cast<T>(~v); });
  });
}
constexpr SignatureText kRows[] = {{18, "X: T -> Y: T; T = ints uints"}};

}  // namespace bitwise_not_op
}  // namespace

OpDef def_BitwiseNot() {
  using namespace bitwise_not_op;
  return def_from_rows("", "BitwiseNot", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
