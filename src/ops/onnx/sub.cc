// Sub: A - B, multidirectional broadcasting (legacy broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/onnx/arith_def.h"

namespace bough::ops {

namespace {
namespace sub_op {
struct SubFn {
  template <typename T>
  auto operator()(T a, T b) const {
    return a - b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  arith<SubFn>(a, b, out, pool, "Sub");
}
}  // namespace sub_op
}  // namespace

OpDef def_Sub() {
  using namespace sub_op;
  return arith_def("Sub", make_binary<compute>);
}

}  // namespace bough::ops
