// com.microsoft MatMulInteger16-1: numpy's matmul of 16-bit integers accumulated in 32 bits.
// Each product fits; a sum that leaves the 32-bit range wraps, as ONNX Runtime's int32
// accumulation does. Y is uint32 when both inputs are uint16, else int32.
#include "kernels/convert.h"
#include "kernels/matmul.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace mat_mul_integer16_op {

ElemType result_type(ElemType a, ElemType b) {
  return a == ElemType::UInt16 && b == ElemType::UInt16 ? ElemType::UInt32 : ElemType::Int32;
}

class MatMulInteger16 : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    const Tensor& b = io.input(1);
    const ElemType y = result_type(a.type(), b.type());
    io.set_output(0, kernels::matmul(kernels::cast(a, y), kernels::cast(b, y), io.pool()));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<MatMulInteger16>(); }

void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, result_type(ctx.input_elem(0), ctx.input_elem(1)),
                        matmul_shape(ctx, 0, 1));
}

constexpr SignatureText kRows[] = {
    {1, "A: T1, B: T2 -> Y: T3; T1 = int16 uint16, T2 = int16 uint16, T3 = int32 uint32"}};

}  // namespace mat_mul_integer16_op
}  // namespace

OpDef def_MsMatMulInteger16() {
  using namespace mat_mul_integer16_op;
  return def_from_rows("com.microsoft", "MatMulInteger16", make, infer, kRows);
}

}  // namespace bough::ops
