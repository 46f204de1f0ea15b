// DequantizeLinear: y = (x - x_zero_point) * x_scale, per tensor, per axis (1-D scale) or
// blocked (block_size, 21+). The output type is output_dtype's (23+), else x_scale's; it is
// also the precision of the product: x - x_zero_point and x_scale are rounded to it first.
// From version 24 the scale may be float8e8m0 (a power of two, as MX formats keep per
// block); the output cannot be float8e8m0, so such a scale needs output_dtype.
#include "ops/def_from_rows.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace dequantize_linear_op {

using quant::bad;

bool is_quantized_input(ElemType t) { return quant::is_quantized_type(t) || t == ElemType::Int32; }

bool is_output_type(ElemType t) {
  return t == ElemType::Float || t == ElemType::Float16 || t == ElemType::BFloat16 ||
         t == ElemType::Double;
}

class DequantizeLinear : public Kernel {
 public:
  DequantizeLinear(int64_t axis, int64_t block_size, ElemType output_dtype)
      : axis_(axis), block_size_(block_size), output_dtype_(output_dtype) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor* zp = io.has_input(2) ? &io.input(2) : nullptr;
    if (!is_quantized_input(x.type()))
      bad("DequantizeLinear: cannot dequantize " + quant::type_name(x.type()));
    if (!is_output_type(scale.type()) && scale.type() != ElemType::Float8E8M0)
      bad("DequantizeLinear: x_scale must be float, float16, bfloat16 or float8e8m0, got " +
          quant::type_name(scale.type()));
    if (scale.type() == ElemType::Float8E8M0 && output_dtype_ == ElemType::Undefined)
      bad("DequantizeLinear: an x_scale of float8e8m0 needs output_dtype (the output takes the "
          "scale's type otherwise, and float8e8m0 is not an output type)");
    if (zp) {
      if (zp->type() != x.type())
        bad("DequantizeLinear: x_zero_point is " + quant::type_name(zp->type()) + " but x is " +
            quant::type_name(x.type()));
      quant::check_zero_point_shape("DequantizeLinear", scale, *zp);
    }
    const ElemType out_type = output_dtype_ != ElemType::Undefined ? output_dtype_ : scale.type();
    const quant::ParamLayout L =
        quant::param_layout("DequantizeLinear", x.shape(), scale.shape(), axis_, block_size_);
    const quant::Precision prec = quant::precision_of(out_type);
    std::vector<double> scales = quant::values(scale);
    for (double& s : scales) s = quant::round_to(s, prec);
    const std::vector<double> zps =
        zp ? quant::values(*zp) : std::vector<double>(scales.size(), 0.0);

    Tensor y(out_type, x.shape());
    auto store = [&](int64_t i, double v) {
      switch (out_type) {
        case ElemType::Float:
          y.data<float>()[i] = static_cast<float>(v);
          return;
        case ElemType::Double:
          y.data<double>()[i] = v;
          return;
        case ElemType::Float16:
          y.data<uint16_t>()[i] = float_to_half(static_cast<float>(v));
          return;
        default:
          y.data<uint16_t>()[i] = float_to_bfloat16(static_cast<float>(v));
          return;
      }
    };
    auto loop = [&](auto&& read) {
      quant::for_each_element(L, 1, io.pool(), [&](int64_t i, int64_t p) {
        const size_t q = static_cast<size_t>(p);
        const double d = quant::round_to(read(i) - zps[q], prec);
        store(i, quant::round_to(d * scales[q], prec));
      });
    };
    auto loop_over = [&](auto tag) {
      loop([p = x.data<typename decltype(tag)::type>()](int64_t i) { return double(p[i]); });
    };
    if (x.type() == ElemType::Int32)
      loop_over(kernels::Tag<int32_t>{});
    else if (!quant::visit_int8_or_16(x.type(), loop_over))
      loop([&x](int64_t i) { return x.get_double(i); });  // the narrow types
    io.set_output(0, std::move(y));
  }

 private:
  int64_t axis_;
  int64_t block_size_;
  ElemType output_dtype_;  // Undefined when absent
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t axis = ctx.since >= 13 ? ctx.attr_int("axis", 1) : 1;
  int64_t block_size = 0;
  ElemType output_dtype = ElemType::Undefined;
  if (ctx.since >= 21) {
    block_size = ctx.attr_int("block_size", 0);
    if (block_size < 0) ctx.invalid("block_size must not be negative");
  }
  if (ctx.since >= 23) {
    const int64_t od = ctx.attr_int("output_dtype", 0);
    if (od != 0) {
      if (od < 0 || od > kLastElemType || !is_output_type(static_cast<ElemType>(od)))
        ctx.invalid("output_dtype " + std::to_string(od) + " is not float, float16 or bfloat16");
      output_dtype = static_cast<ElemType>(od);
    }
  }
  return std::make_unique<DequantizeLinear>(axis, block_size, output_dtype);
}

// float before opset 19, then x_scale's type, or output_dtype from opset 23; x's shape.
void infer(InferContext& ctx) {
  ElemType out = ctx.since >= 19 ? ctx.input_elem(1) : ElemType::Float;
  if (const int64_t dtype = ctx.since >= 23 ? ctx.attr_int("output_dtype", 0) : 0; dtype != 0) {
    if (!is_valid_elem_code(static_cast<int>(dtype)))
      ctx.invalid("unsupported output_dtype " + std::to_string(dtype));
    out = static_cast<ElemType>(dtype);
  }
  infer_shape_of_first(ctx, out);
}
constexpr SignatureText kRows[] = {
    {10,
     "x: T, x_scale: tensor(float), x_zero_point?: T -> y: tensor(float); T = int8 int32 uint8"},
    {13,
     "x: T, x_scale: tensor(float), x_zero_point?: T -> y: tensor(float); T = int8 int32 uint8; "
     "axis: int = 1"},
    {19,
     "x: T1, x_scale: T2, x_zero_point?: T1 -> y: T2; T1 = int8 uint8 int32 float8s, T2 = float "
     "float16 bfloat16; axis: int = 1"},
    {21,
     "x: T1, x_scale: T2, x_zero_point?: T1 -> y: T2; T1 = int8 uint8 int16 uint16 int32 "
     "float8s uint4 int4, T2 = float float16 bfloat16; axis: int = 1, block_size: int = 0"},
    {23,
     "x: T1, x_scale: T2, x_zero_point?: T1 -> y: T3; T1 = int8 uint8 int16 uint16 int32 "
     "float8s uint4 int4 float4e2m1, T2 = float float16 bfloat16, T3 = float float16 bfloat16; "
     "axis: int = 1, block_size: int = 0, output_dtype: int = 0"},
    {24,
     "x: T1, x_scale: T2, x_zero_point?: T1 -> y: T3; T1 = int8 uint8 int16 uint16 int32 "
     "float8s uint4 int4 float4e2m1, T2 = float float16 bfloat16 float8e8m0, T3 = float float16 "
     "bfloat16; axis: int = 1, block_size: int = 0, output_dtype: int = 0"},
    {25,
     "x: T1, x_scale: T2, x_zero_point?: T1 -> y: T3; T1 = int8 uint8 int16 uint16 int32 "
     "float8s uint4 int4 float4e2m1 uint2 int2, T2 = float float16 bfloat16 float8e8m0, T3 = "
     "float float16 bfloat16; axis: int = 1, block_size: int = 0, output_dtype: int = 0"}};

}  // namespace dequantize_linear_op
}  // namespace

OpDef def_DequantizeLinear() {
  using namespace dequantize_linear_op;
  return def_from_rows("", "DequantizeLinear", make, infer, kRows);
}

}  // namespace bough::ops
