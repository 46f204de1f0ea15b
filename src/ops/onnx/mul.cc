// Mul: A * B, multidirectional broadcasting (legacy broadcast/axis before opset 7).
#include "ops/elementwise.h"
#include "ops/onnx/arith_def.h"

namespace bough::ops {

namespace {
namespace mul_op {
struct MulFn {
  template <typename T>
  auto operator()(T a, T b) const {
    return a * b;
  }
};
void compute(const Tensor& a, const Tensor& b, Tensor& out, util::ThreadPool& pool) {
  arith<MulFn>(a, b, out, pool, "Mul");
}
}  // namespace mul_op
}  // namespace

OpDef def_Mul() {
  using namespace mul_op;
  return arith_def("Mul", make_binary<compute>);
}

}  // namespace bough::ops
