// ConvInteger: Conv of (x - x_zero_point) with (w - w_zero_point) for 8-bit x and w, giving
// int32 (integer_conv.h). The exact sums wrap to 32 bits, as the spec allows.
#include "ops/def_from_rows.h"
#include "ops/onnx/integer_conv.h"
#include "ops/onnx/nn_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace conv_integer_op {

constexpr const char* kOp = "ConvInteger";

class ConvInteger : public Kernel {
 public:
  explicit ConvInteger(const BuildContext& ctx) : setup_(ctx, kOp, 1, 3) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    integer_conv::Filter scratch;
    const integer_conv::Filter& w = setup_.filter(io, scratch);
    const integer_conv::Conv conv = setup_.conv(x.shape(), w);
    const std::vector<float> xd = integer_conv::shifted(
        kOp, x, io.has_input(2) ? &io.input(2) : nullptr, false, "x_zero_point");
    Tensor y(ElemType::Int32, conv.output_shape());
    const int64_t M = conv.output_shape()[1], P = conv.positions();
    conv.run(xd, w, io.pool(), [&](int64_t n, int64_t p0, int64_t cols, const double* sums) {
      int32_t* yn = y.data<int32_t>() + n * M * P;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t p = 0; p < cols; ++p)  // exact integers; keep the low 32 bits
          yn[m * P + p0 + p] = static_cast<int32_t>(static_cast<int64_t>(sums[m * cols + p]));
    });
    io.set_output(0, std::move(y));
  }

 private:
  integer_conv::Setup setup_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return std::make_unique<ConvInteger>(ctx); }

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Int32, conv_output_shape(ctx)); }

constexpr SignatureText kRows[] = {
    {10,
     "x: T1, w: T2, x_zero_point?: T1, w_zero_point?: T2 -> y: T3; T1 = int8 uint8, T2 = int8 "
     "uint8, T3 = int32; auto_pad: string = NOTSET, dilations: ints?, group: int = 1, "
     "kernel_shape: ints?, pads: ints?, strides: ints?"}};

}  // namespace conv_integer_op
}  // namespace

OpDef def_ConvInteger() {
  using namespace conv_integer_op;
  return def_from_rows("", "ConvInteger", make, infer, kRows);
}

}  // namespace bough::ops
