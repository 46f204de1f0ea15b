// com.microsoft DynamicQuantizeMatMul-1: A (float) quantized to uint8 as DynamicQuantizeLinear
// does (scale a_s, zero point a_z), then
//   Y = ((A_q - a_z) · (B - b_zero_point)) * (a_s * b_scale) + bias
// with the integer product exact in int32 and the rest in float. B is int8 or uint8 (2-D or
// batched like MatMul); b_scale and b_zero_point are scalars or one per column of B (N
// values); bias has N values.
#include <string>

#include "kernels/matmul.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/dynamic_quantize.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace dynamic_quantize_matmul_op {

constexpr const char* kOp = "DynamicQuantizeMatMul";

[[noreturn]] void bad(const std::string& message) { quant::bad(std::string(kOp) + ": " + message); }

// A scalar or per-column (n values) float parameter, as a column-indexed accessor.
const float* per_column(const Tensor* t, int64_t n, const char* what, int64_t& stride) {
  if (!t) return nullptr;
  if (t->type() != ElemType::Float) bad(std::string(what) + " must be float");
  if (t->numel() != 1 && t->numel() != n)
    bad(std::string(what) + " of shape " + shape_string(t->shape()) + " is neither one value nor " +
        std::to_string(n));
  stride = t->numel() == 1 ? 0 : 1;
  return t->data<float>();
}

class DynamicQuantizeMatMul : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    const Tensor& b = io.input(1);
    if (a.type() != ElemType::Float) bad("A must be float");
    if (b.type() != ElemType::Int8 && b.type() != ElemType::UInt8) bad("B must be int8 or uint8");
    if (b.rank() < 2) bad("B must have rank 2 or more, got " + shape_string(b.shape()));
    const int64_t n = b.dim(b.rank() - 1);
    const Tensor* b_zp = io.has_input(3) ? &io.input(3) : nullptr;
    if (b_zp && b_zp->type() != b.type()) bad("b_zero_point must have B's type");
    const Dims zp_shape =
        b_zp ? quant::matmul_param_shape(kOp, "b_zero_point", *b_zp, b, false) : Dims{};
    quant::DynamicQuantized q = quant::dynamic_quantize(a);
    Tensor zp(ElemType::UInt8, Dims{});
    zp.data<uint8_t>()[0] = q.zero_point;
    const Tensor acc = kernels::matmul(quant::subtract_zero_point(q.y, &zp, Dims{}),
                                       quant::subtract_zero_point(b, b_zp, zp_shape), io.pool());
    int64_t scale_stride = 0, bias_stride = 0;
    const float* scale = per_column(&io.input(2), n, "b_scale", scale_stride);
    const float* bias =
        per_column(io.has_input(4) ? &io.input(4) : nullptr, n, "bias", bias_stride);
    if (bias && bias_stride == 0 && n != 1) bad("bias must have one value per column of B");
    Tensor y(ElemType::Float, acc.shape());
    const int32_t* in = acc.data<int32_t>();
    float* out = y.data<float>();
    for (int64_t i = 0; i < acc.numel(); ++i) {
      const int64_t c = i % n;
      out[i] = static_cast<float>(in[i]) * (q.scale * scale[c * scale_stride]);
      if (bias) out[i] += bias[c];
    }
    io.set_output(0, std::move(y));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) {
  return std::make_unique<DynamicQuantizeMatMul>();
}

void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ElemType::Float, matmul_shape(ctx, 0, 1));
}

constexpr SignatureText kRows[] = {
    {1,
     "A: T1, B: T2, b_scale: T1, b_zero_point?: T2, bias?: T1 -> Y: T1; T1 = "
     "float, T2 = int8 uint8"}};

}  // namespace dynamic_quantize_matmul_op
}  // namespace

OpDef def_MsDynamicQuantizeMatMul() {
  using namespace dynamic_quantize_matmul_op;
  return def_from_rows("com.microsoft", "DynamicQuantizeMatMul", make, infer, kRows);
}

}  // namespace bough::ops
