// DynamicQuantizeLinear: quantizes float x to uint8 with a scale and zero point computed from
// x's range, in float arithmetic exactly as the spec's function body does:
//   lo = min(0, min(x)), hi = max(0, max(x)), y_scale = (hi - lo) / 255,
//   y_zero_point = round(clip(0 - lo / y_scale, 0, 255)), y = QuantizeLinear(x, y_scale,
//   y_zero_point).
// The body leaves some cases undefined; here NaN elements are left out of the range, and a
// range of zero (x all zeros, or empty) or infinity gives y_zero_point 0 and y all 0.
#include <cmath>
#include <limits>

#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {

class DynamicQuantizeLinear : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::Float)
      quant::bad("DynamicQuantizeLinear: x must be float, got " + quant::type_name(x.type()));
    const float* xs = x.data<float>();
    const int64_t n = x.numel();
    float lo = 0.0f, hi = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
      if (xs[i] < lo) lo = xs[i];
      if (xs[i] > hi) hi = xs[i];  // NaN compares false both ways
    }
    const float scale = (hi - lo) / 255.0f;
    uint8_t zero_point = 0;
    Tensor y(ElemType::UInt8, x.shape());
    uint8_t* ys = y.data<uint8_t>();
    if (scale > 0.0f && std::isfinite(scale)) {
      const float initial = 0.0f - lo / scale;
      zero_point = static_cast<uint8_t>(std::nearbyint(std::clamp(initial, 0.0f, 255.0f)));
      const float zp = zero_point;
      for (int64_t i = 0; i < n; ++i) {
        const float r = std::nearbyint(xs[i] / scale) + zp;
        ys[i] = std::isnan(r) ? 0 : static_cast<uint8_t>(std::clamp(r, 0.0f, 255.0f));
      }
    } else {
      for (int64_t i = 0; i < n; ++i) ys[i] = 0;
    }
    Tensor s(ElemType::Float, Dims{});
    s.data<float>()[0] = scale;
    Tensor z(ElemType::UInt8, Dims{});
    z.data<uint8_t>()[0] = zero_point;
    io.set_output(0, std::move(y));
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
}  // namespace

const OpDef& def_DynamicQuantizeLinear() {
  static const OpDef def{
      "",
      "DynamicQuantizeLinear",
      {11},
      1,
      1,
      3,
      3,
      make,
      infer,
      {{11, "x: T1 -> y: T2, y_scale: tensor(float), y_zero_point: T2; T1 = float, T2 = uint8"}}};
  return def;
}

}  // namespace bough::ops
