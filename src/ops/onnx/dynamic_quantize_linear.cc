// DynamicQuantizeLinear: quantizes float x to uint8 with a scale and zero point computed from
// x's range (ops/onnx/dynamic_quantize.h).
#include "ops/def_from_rows.h"
#include "ops/onnx/dynamic_quantize.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace dynamic_quantize_linear_op {

class DynamicQuantizeLinear : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::Float)
      quant::bad("DynamicQuantizeLinear: x must be float, got " + quant::type_name(x.type()));
    quant::DynamicQuantized q = quant::dynamic_quantize(x);
    Tensor s(ElemType::Float, Dims{});
    s.data<float>()[0] = q.scale;
    Tensor z(ElemType::UInt8, Dims{});
    z.data<uint8_t>()[0] = q.zero_point;
    io.set_output(0, std::move(q.y));
    io.set_output(1, std::move(s));
    io.set_output(2, std::move(z));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) {
  return std::make_unique<DynamicQuantizeLinear>();
}

// y: uint8 in x's shape; y_scale and y_zero_point: scalars.
void infer(InferContext& ctx) {
  infer_shape_of_first(ctx, ElemType::UInt8);
  ctx.set_output_tensor(1, ElemType::Float, known_shape({}));
  ctx.set_output_tensor(2, ElemType::UInt8, known_shape({}));
}
constexpr SignatureText kRows[] = {
    {11, "x: T1 -> y: T2, y_scale: tensor(float), y_zero_point: T2; T1 = float, T2 = uint8"}};

}  // namespace dynamic_quantize_linear_op
}  // namespace

OpDef def_DynamicQuantizeLinear() {
  using namespace dynamic_quantize_linear_op;
  return def_from_rows("", "DynamicQuantizeLinear", make, infer, kRows);
}

}  // namespace bough::ops
