// QuantizeLinear: y = saturate(round(x / y_scale) + y_zero_point), per tensor, per axis
// (1-D scale) or blocked (block_size, 21+). The output type is y_zero_point's, else
// output_dtype's (21+), else uint8. The division is carried out in the precision attribute's
// type (23+), else y_scale's: x and y_scale are rounded to it, and so is the quotient. A
// float8e8m0 scale (24+: a power of two) has no precision of its own to carry the division
// in; it is then x's type's (double for int32 x), in which dividing by it is exact.
// Integer outputs round to nearest even and saturate; float8 outputs follow Cast with
// `saturate` (19+); float4e2m1 always saturates.
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace quantize_linear_op {

using quant::bad;

bool is_input_type(ElemType t) {
  return t == ElemType::Float || t == ElemType::Float16 || t == ElemType::BFloat16 ||
         t == ElemType::Int32 || t == ElemType::Double;
}

class QuantizeLinear : public Kernel {
 public:
  QuantizeLinear(int64_t axis, bool saturate, int64_t block_size, ElemType output_dtype,
                 ElemType precision)
      : axis_(axis),
        saturate_(saturate),
        block_size_(block_size),
        output_dtype_(output_dtype),
        precision_(precision) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& scale = io.input(1);
    const Tensor* zp = io.has_input(2) ? &io.input(2) : nullptr;
    if (!is_input_type(x.type()))
      bad("QuantizeLinear: x must be float, float16, bfloat16 or int32, got " +
          quant::type_name(x.type()));
    const bool power_of_two_scale = scale.type() == ElemType::Float8E8M0;
    if (!is_input_type(scale.type()) && !power_of_two_scale)
      bad("QuantizeLinear: y_scale must be float, float16, bfloat16, int32 or float8e8m0, got " +
          quant::type_name(scale.type()));
    ElemType out_type = output_dtype_ != ElemType::Undefined ? output_dtype_ : ElemType::UInt8;
    if (zp) {
      if (output_dtype_ != ElemType::Undefined && zp->type() != output_dtype_)
        bad("QuantizeLinear: y_zero_point is " + quant::type_name(zp->type()) +
            " but output_dtype is " + quant::type_name(output_dtype_));
      out_type = zp->type();
      quant::check_zero_point_shape("QuantizeLinear", scale, *zp);
    }
    const quant::QuantizedWriter write(out_type, saturate_);
    const quant::ParamLayout L =
        quant::param_layout("QuantizeLinear", x.shape(), scale.shape(), axis_, block_size_);

    ElemType division = precision_ != ElemType::Undefined ? precision_ : scale.type();
    if (division == ElemType::Float8E8M0) division = x.type();
    const quant::Precision prec = quant::precision_of(division);
    std::vector<double> scales = quant::values(scale);
    for (double& s : scales) s = quant::round_to(s, prec);
    const std::vector<double> zps =
        zp ? quant::values(*zp) : std::vector<double>(scales.size(), 0.0);

    // x as float or double (float16/bfloat16 widen exactly; int32 goes through double).
    const Tensor xw = kernels::widen(x);

    Tensor y = quant::new_output(out_type, x.shape());
    const int64_t align = is_sub_byte(out_type) ? 8 / elem_bits(out_type) : 1;
    auto loop = [&](const auto* xs) {
      quant::for_each_element(L, align, io.pool(), [&](int64_t i, int64_t p) {
        const size_t q = static_cast<size_t>(p);
        const double xv = quant::round_to(static_cast<double>(xs[i]), prec);
        write(y, i, quant::round_to(xv / scales[q], prec), zps[q]);
      });
    };
    switch (xw.type()) {
      case ElemType::Float:
        loop(xw.data<float>());
        break;
      case ElemType::Double:
        loop(xw.data<double>());
        break;
      default:
        loop(xw.data<int32_t>());
        break;
    }
    io.set_output(0, std::move(y));
  }

 private:
  int64_t axis_;
  bool saturate_;
  int64_t block_size_;
  ElemType output_dtype_;  // Undefined when absent
  ElemType precision_;     // Undefined when absent
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t axis = ctx.since >= 13 ? ctx.attr_int("axis", 1) : 1;
  const bool saturate = ctx.since >= 19 ? ctx.attr_int("saturate", 1) != 0 : true;
  int64_t block_size = 0;
  ElemType output_dtype = ElemType::Undefined, precision = ElemType::Undefined;
  if (ctx.since >= 21) {
    block_size = ctx.attr_int("block_size", 0);
    if (block_size < 0) ctx.invalid("block_size must not be negative");
    const int64_t od = ctx.attr_int("output_dtype", 0);
    if (od != 0) {
      if (od < 0 || od > kLastElemType || !quant::is_quantized_type(static_cast<ElemType>(od)))
        ctx.invalid("output_dtype " + std::to_string(od) + " is not a quantized type");
      output_dtype = static_cast<ElemType>(od);
    }
  }
  if (ctx.since >= 23) {
    const int64_t p = ctx.attr_int("precision", 0);
    if (p != 0) {
      const ElemType t = static_cast<ElemType>(p);
      if (p < 0 || p > kLastElemType ||
          (t != ElemType::Float && t != ElemType::Float16 && t != ElemType::BFloat16 &&
           t != ElemType::Double))
        ctx.invalid("precision " + std::to_string(p) +
                    " is not float, float16, bfloat16 or double");
      precision = t;
    }
  }
  return std::make_unique<QuantizeLinear>(axis, saturate, block_size, output_dtype, precision);
}

// The zero point's type, else output_dtype (from opset 21), else uint8; x's shape.
void infer(InferContext& ctx) {
  const int64_t dtype = ctx.since >= 21 ? ctx.attr_int("output_dtype", 0) : 0;
  if (dtype != 0 && !is_valid_elem_code(static_cast<int>(dtype)))
    ctx.invalid("unsupported output_dtype " + std::to_string(dtype));
  ElemType out = ElemType::UInt8;
  if (ctx.has_input(2)) {
    out = ctx.input_elem(2);
    if (dtype != 0 && out != ElemType::Undefined && static_cast<int64_t>(out) != dtype)
      ctx.invalid("output_dtype " + std::string(elem_name(static_cast<ElemType>(dtype))) +
                  " differs from y_zero_point's type " + std::string(elem_name(out)));
  } else if (dtype != 0) {
    out = static_cast<ElemType>(dtype);
  }
  infer_shape_of_first(ctx, out);
}
constexpr SignatureText kRows[] = {
    {10,
     "x: T1, y_scale: tensor(float), y_zero_point?: T2 -> y: T2; T1 = float "
     "int32, T2 = int8 uint8"},
    {13,
     "x: T1, y_scale: tensor(float), y_zero_point?: T2 -> y: T2; T1 = float "
     "int32, T2 = int8 uint8; axis: int = 1"},
    {19,
     "x: T1, y_scale: T1, y_zero_point?: T2 -> y: T2; T1 = float float16 bfloat16 int32, T2 = "
     "int8 uint8 float8s; axis: int = 1, saturate: int = 1"},
    {21,
     "x: T1, y_scale: T1, y_zero_point?: T2 -> y: T2; T1 = float float16 bfloat16 int32, T2 = "
     "int8 uint8 int16 uint16 float8s uint4 int4; axis: int = 1, block_size: int = 0, "
     "output_dtype: int = 0, saturate: int = 1"},
    {23,
     "x: T1, y_scale: T2, y_zero_point?: T3 -> y: T3; T1 = float float16 bfloat16 int32, T2 = "
     "float float16 bfloat16 int32, T3 = int8 uint8 int16 uint16 float8s uint4 int4 float4e2m1; "
     "axis: int = 1, block_size: int = 0, output_dtype: int = 0, precision: int = 0, saturate: "
     "int = 1"},
    {24,
     "x: T1, y_scale: T2, y_zero_point?: T3 -> y: T3; T1 = float float16 bfloat16 int32, T2 = "
     "float float16 bfloat16 int32 float8e8m0, T3 = int8 uint8 int16 uint16 float8s uint4 int4 "
     "float4e2m1; axis: int = 1, block_size: int = 0, output_dtype: int = 0, precision: int = "
     "0, saturate: int = 1"},
    {25,
     "x: T1, y_scale: T2, y_zero_point?: T3 -> y: T3; T1 = float float16 bfloat16 int32, T2 = "
     "float float16 bfloat16 int32 float8e8m0, T3 = int8 uint8 int16 uint16 float8s uint4 int4 "
     "float4e2m1 uint2 int2; axis: int = 1, block_size: int = 0, output_dtype: int = 0, "
     "precision: int = 0, saturate: int = 1"}};

}  // namespace quantize_linear_op
}  // namespace

OpDef def_QuantizeLinear() {
  using namespace quantize_linear_op;
  return def_from_rows("", "QuantizeLinear", make, infer, kRows);
}

}  // namespace bough::ops
