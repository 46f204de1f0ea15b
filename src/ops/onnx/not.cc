// Not: logical negation of a bool tensor.
#include "ops/elementwise.h"

namespace bough::ops {

namespace {
Tensor compute(const Tensor& x, exec::ThreadPool& pool) {
  if (x.type() != ElemType::Bool) kernels::unsupported_type(x.type(), "Not");
  return kernels::unary_map<bool, bool>(x, ElemType::Bool, pool, [](bool v) { return !v; });
}
}  // namespace

const OpDef& def_Not() {
  static const OpDef def{"", "Not", {1}, 1, 1, 1, 1, make_unary<compute>};
  return def;
}

}  // namespace bough::ops
