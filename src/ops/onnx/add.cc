// Add: A + B, multidirectional broadcasting (legacy broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/onnx/arith_def.h"

namespace bough::ops {

namespace {
namespace add_op {
struct AddFn {
  template <typename T>
  auto operator()(T a, T b) const {
    return a + b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  arith<AddFn>(a, b, out, pool, "Add");
}
}  // namespace add_op
}  // namespace

OpDef def_Add() {
  using namespace add_op;
  return arith_def("Add", make_binary<compute>);
}

}  // namespace bough::ops
