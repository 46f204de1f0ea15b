// QLinearConv: a convolution of quantized tensors, requantized:
//   y = saturate(round((sum (x - x_zero_point) * (w - w_zero_point) + B) * x_scale * w_scale /
//                y_scale) + y_zero_point)
// x's and y's scale and zero point are scalars; w's a scalar or one per output channel (M);
// B (optional) is int32, one per output channel. The sums are exact (integer_conv.h); the
// scale factor is computed in float as ONNX Runtime does, the rest in double; rounding is to
// nearest even and the result saturates to y's type (y_zero_point's, int8 or uint8).
#include "ops/def_from_rows.h"
#include "ops/onnx/integer_conv.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace qlinear_conv_op {

using quant::bad;

constexpr const char* kOp = "QLinearConv";
enum Input : size_t { kX, kXScale, kXZero, kW, kWScale, kWZero, kYScale, kYZero, kBias };

// The values of a float scale holding one value, or `per_channel` values when that is not 0.
std::vector<double> scale_values(const Tensor& scale, const char* name, int64_t per_channel = 0) {
  if (scale.type() != ElemType::Float)
    bad(std::string(kOp) + ": " + name + " must be float, got " + quant::type_name(scale.type()));
  const bool per_channel_ok = per_channel > 0 && scale.rank() == 1 && scale.dim(0) == per_channel;
  if (scale.numel() != 1 && !per_channel_ok)
    bad(std::string(kOp) + ": " + name + " of shape " + shape_string(scale.shape()) +
        " must be a scalar" +
        (per_channel ? " or hold one value per output channel (" + std::to_string(per_channel) + ")"
                     : std::string()));
  return quant::values(scale);
}

class QLinearConv : public Kernel {
 public:
  explicit QLinearConv(const BuildContext& ctx) : setup_(ctx, kOp, kW, kWZero) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(kX);
    integer_conv::Filter scratch;
    const integer_conv::Filter& w = setup_.filter(io, scratch);
    const integer_conv::Conv conv = setup_.conv(x.shape(), w);
    const int64_t M = conv.output_shape()[1], P = conv.positions();

    const double x_scale = scale_values(io.input(kXScale), "x_scale")[0];
    const std::vector<double> w_scale = scale_values(io.input(kWScale), "w_scale", M);
    const double y_scale = scale_values(io.input(kYScale), "y_scale")[0];
    const Tensor& y_zero_point = io.input(kYZero);
    const ElemType out_type = y_zero_point.type();
    if (out_type != ElemType::UInt8 && out_type != ElemType::Int8)
      bad(std::string(kOp) + ": y_zero_point must be int8 or uint8, got " +
          quant::type_name(out_type));
    if (y_zero_point.numel() != 1)
      bad(std::string(kOp) + ": y_zero_point of shape " + shape_string(y_zero_point.shape()) +
          " must be a scalar");
    const double y_zero = y_zero_point.get_double(0);
    std::vector<double> bias(static_cast<size_t>(M), 0.0);
    if (io.has_input(kBias)) {
      const Tensor& b = io.input(kBias);
      if (b.type() != ElemType::Int32 || b.rank() != 1 || b.dim(0) != M)
        bad(std::string(kOp) + ": B must be a 1-D int32 tensor of " + std::to_string(M) +
            " values (one per output channel), got " + quant::type_name(b.type()) + " " +
            shape_string(b.shape()));
      bias = quant::values(b);
    }
    // x_scale * w_scale / y_scale per output channel, each step rounded to float.
    std::vector<double> factor(static_cast<size_t>(M));
    for (int64_t m = 0; m < M; ++m) {
      const double ws = w_scale[w_scale.size() == 1 ? 0 : static_cast<size_t>(m)];
      factor[static_cast<size_t>(m)] =
          quant::round_to(quant::round_to(x_scale * ws, quant::Precision::Float) / y_scale,
                          quant::Precision::Float);
    }

    const std::vector<float> xd = integer_conv::shifted(
        kOp, x, io.has_input(kXZero) ? &io.input(kXZero) : nullptr, false, "x_zero_point");
    const quant::QuantizedWriter write(out_type, true);
    Tensor y(out_type, conv.output_shape());
    conv.run(xd, w, io.pool(), [&](int64_t n, int64_t p0, int64_t cols, const double* sums) {
      for (int64_t m = 0; m < M; ++m) {
        const size_t mi = static_cast<size_t>(m);
        const int64_t base = (n * M + m) * P + p0;
        for (int64_t p = 0; p < cols; ++p)
          write(y, base + p, (sums[m * cols + p] + bias[mi]) * factor[mi], y_zero);
      }
    });
    io.set_output(0, std::move(y));
  }

 private:
  integer_conv::Setup setup_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<QLinearConv>(ctx); }

// y takes y_zero_point's type and the convolution's shape.
void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ctx.input_elem(kYZero), conv_output_shape(ctx, kW));
}

constexpr SignatureText kRows[] = {
    {10,
     "x: T1, x_scale: tensor(float), x_zero_point: T1, w: T2, w_scale: tensor(float), "
     "w_zero_point: T2, y_scale: tensor(float), y_zero_point: T3, B?: T4 -> y: T3; T1 = int8 "
     "uint8, T2 = int8 uint8, T3 = int8 uint8, T4 = int32; auto_pad: string = NOTSET, "
     "dilations: ints?, group: int = 1, kernel_shape: ints?, pads: ints?, strides: ints?"}};

}  // namespace qlinear_conv_op
}  // namespace

OpDef def_QLinearConv() {
  using namespace qlinear_conv_op;
  return def_from_rows("", "QLinearConv", make, infer, kRows);
}

}  // namespace bough::ops
