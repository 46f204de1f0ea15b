// MatMulInteger: numpy's matmul of (A - a_zero_point) and (B - b_zero_point) in int32, for
// 8-bit A and B. a_zero_point is a scalar or per row of A (M values, or [..., M, 1]);
// b_zero_point a scalar or per column of B (N values, or [..., 1, N]). Accumulation wraps
// around in 32 bits, as the spec allows.
#include "kernels/matmul.h"
#include "ops/constant_use.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace matmul_integer_op {

using quant::bad;

bool is_8bit(ElemType t) { return t == ElemType::UInt8 || t == ElemType::Int8; }

// x - zero_point in int32; `per_row` picks how a 1-D zero point lines up with x.
Tensor shifted(const Tensor& x, const Tensor* zp, bool per_row, const char* name) {
  if (!is_8bit(x.type()))
    bad(std::string("MatMulInteger: ") + (per_row ? "A" : "B") + " must be int8 or uint8, got " +
        quant::type_name(x.type()));
  if (zp && zp->type() != x.type())
    bad(std::string("MatMulInteger: ") + name + " is " + quant::type_name(zp->type()) +
        " but its input is " + quant::type_name(x.type()));
  const Dims shape =
      zp ? quant::matmul_param_shape("MatMulInteger", name, *zp, x, per_row) : Dims{};
  return quant::subtract_zero_point(x, zp, shape);
}

// B - b_zero_point in int32, made once at plan time when both are constant; undefined
// otherwise (then made on every run, which also reports what is wrong with them).
Tensor prepare(const BuildContext& ctx) {
  const Tensor* b = ctx.constant_input(1);
  const bool has_zp = ctx.node.inputs.size() > 3 && ctx.node.inputs[3];
  const Tensor* zp = has_zp ? ctx.constant_input(3) : nullptr;
  if (!b || (has_zp && !zp)) return Tensor();
  try {
    Tensor sb = shifted(*b, zp, false, "b_zero_point");
    ctx.count_prepared(zp ? 2 : 1);
    consume_constant_input(ctx, 1);  // run reads only the prepared form from here on
    if (zp) consume_constant_input(ctx, 3);
    return sb;
  } catch (const Error&) {
    return Tensor();
  }
}

class MatMulInteger : public Kernel {
 public:
  explicit MatMulInteger(Tensor prepared_b) : prepared_b_(std::move(prepared_b)) {}

  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    const Tensor* a_zp = io.has_input(2) ? &io.input(2) : nullptr;
    const Tensor sa = shifted(a, a_zp, true, "a_zero_point");
    if (prepared_b_.defined()) return io.set_output(0, kernels::matmul(sa, prepared_b_, io.pool()));
    const Tensor* b_zp = io.has_input(3) ? &io.input(3) : nullptr;
    const Tensor sb = shifted(io.input(1), b_zp, false, "b_zero_point");
    io.set_output(0, kernels::matmul(sa, sb, io.pool()));
  }

 private:
  Tensor prepared_b_;  // B - b_zero_point; undefined: read on every run
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<MatMulInteger>(prepare(ctx));
}

void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ElemType::Int32, matmul_shape(ctx, 0, 1));
}

constexpr SignatureText kRows[] = {
    {10,
     "A: T1, B: T2, a_zero_point?: T1, b_zero_point?: T2 -> Y: T3; T1 = int8 "
     "uint8, T2 = int8 uint8, T3 = int32"}};

}  // namespace matmul_integer_op
}  // namespace

OpDef def_MatMulInteger() {
  using namespace matmul_integer_op;
  return def_from_rows("", "MatMulInteger", make, infer, kRows);
}

}  // namespace bough::ops
