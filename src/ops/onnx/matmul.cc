// MatMul: numpy's matmul (1-D operands promoted, batch dimensions broadcast).
#include "kernels/matmul.h"

#include "ops/elementwise.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
Tensor compute(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  return kernels::matmul(a, b, pool);
}

class MatMul : public Kernel {
 public:
  void run(KernelIO& io) override {
    io.set_output(0, compute(io.input(0), io.input(1), io.pool()));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<MatMul>(); }
void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ctx.input_elem(0), matmul_shape(ctx, 0, 1));
}

}  // namespace

const OpDef& def_MatMul() {
  static const OpDef def{
      "",
      "MatMul",
      {1, 9, 13},
      2,
      2,
      1,
      1,
      make,
      infer,
      {{1, "A: T, B: T -> Y: T; T = floats"},
       {9, "A: T, B: T -> Y: T; T = floats int32 int64 uint32 uint64"},
       {13, "A: T, B: T -> Y: T; T = floats bfloat16 int32 int64 uint32 uint64"}}};
  return def;
}

}  // namespace bough::ops
