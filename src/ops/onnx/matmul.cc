// MatMul: numpy's matmul (1-D operands promoted, batch dimensions broadcast). A constant
// 2-D float B (a weight) is packed for the GEMM once, when the plan is built.
#include "kernels/matmul.h"

#include <optional>

#include "ops/constant_use.h"
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace matmul_op {
Tensor compute(const Tensor& a, const Tensor& b, util::ThreadPool& pool) {
  return kernels::matmul(a, b, pool);
}

class MatMul : public Kernel {
 public:
  explicit MatMul(std::optional<kernels::PackedB> packed_b) : packed_b_(std::move(packed_b)) {}

  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    // B itself is gone once packed (consume_constant_input): matmul_packed reports mismatches.
    if (packed_b_) return io.set_output(0, kernels::matmul_packed(a, *packed_b_, io.pool()));
    io.set_output(0, compute(a, io.input(1), io.pool()));  // reports mismatches
  }

 private:
  std::optional<kernels::PackedB> packed_b_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::optional<kernels::PackedB> packed_b;
  const Tensor* b = ctx.constant_input(1);
  if (b && b->type() == ElemType::Float && b->rank() == 2) {
    packed_b.emplace(b->data<float>(), b->dim(0), b->dim(1), false);
    ctx.count_prepared();
    consume_constant_input(ctx, 1);
  }
  return std::make_unique<MatMul>(std::move(packed_b));
}
void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ctx.input_elem(0), matmul_shape(ctx, 0, 1));
}

constexpr SignatureText kRows[] = {
    {1, "A: T, B: T -> Y: T; T = floats"},
    {9, "A: T, B: T -> Y: T; T = floats int32 int64 uint32 uint64"},
    {13, "A: T, B: T -> Y: T; T = floats bfloat16 int32 int64 uint32 uint64"}};

}  // namespace matmul_op
}  // namespace

OpDef def_MatMul() {
  using namespace matmul_op;
  return def_from_rows("", "MatMul", make, infer, kRows);
}

}  // namespace bough::ops
