// Not: logical negation of a bool tensor.
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace not_op {
void compute(const Tensor& x, Tensor& out, util::ThreadPool& pool) {
  if (x.type() != ElemType::Bool) kernels::unsupported_type(x.type(), "Not");
  kernels::unary_map_into<bool, bool>(x, out, ElemType::Bool, pool, [](bool v) { return !v; });
}
constexpr SignatureText kRows[] = {{1, "X: T -> Y: T; T = bool"}};

}  // namespace not_op
}  // namespace

OpDef def_Not() {
  using namespace not_op;
  return def_from_rows("", "Not", make_unary<compute>, infer_same_as_first, kRows);
}

}  // namespace bough::ops
