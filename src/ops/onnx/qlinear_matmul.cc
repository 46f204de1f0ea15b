// QLinearMatMul: numpy's matmul of two quantized tensors, requantized:
//   y = saturate(round((A - a_zero_point) @ (B - b_zero_point) * (a_scale * b_scale / y_scale))
//                + y_zero_point)
// Scales and zero points are scalars, or per row of A (M values, or [..., M, 1]) and per column
// of B (N values, or [..., 1, N]); y's per tensor or per row. The scale factor is computed in
// the scales' type (when they share one), the rest in double. 8-bit integer operands multiply
// exactly in int32 (accumulation wraps, as the spec allows); float8 operands (21+) in double.
#include "kernels/matmul.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/quantize_common.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace qlinear_matmul_op {

using quant::bad;

constexpr const char* kOp = "QLinearMatMul";

bool is_int8(ElemType t) { return t == ElemType::UInt8 || t == ElemType::Int8; }
bool is_float8(ElemType t) {
  return t == ElemType::Float8E4M3FN || t == ElemType::Float8E4M3FNUZ ||
         t == ElemType::Float8E5M2 || t == ElemType::Float8E5M2FNUZ;
}
bool is_scale_type(ElemType t) {
  return t == ElemType::Float || t == ElemType::Float16 || t == ElemType::BFloat16;
}

// x - zero_point: int32 for 8-bit integers, double for float8.
Tensor shifted(const Tensor& x, const Tensor* zp, const Dims& zp_shape) {
  if (is_int8(x.type())) return quant::subtract_zero_point(x, zp, zp_shape);
  Tensor out(ElemType::Double, x.shape());
  double* dst = out.data<double>();
  const int64_t n = x.numel();
  if (!zp) {
    for (int64_t i = 0; i < n; ++i) dst[i] = x.get_double(i);
    return out;
  }
  const Dims* shapes[] = {&zp_shape};
  quant::Odometer od(x.shape(), shapes);
  for (int64_t i = 0; i < n; ++i, od.next())
    dst[i] = x.get_double(i) - zp->get_double(od.offset(0));
  return out;
}

// A parameter's shape as it lines up with the product: a 1-D operand loses its matrix
// dimension in the result, so the parameter loses it too.
Dims output_param_shape(Dims s, bool per_row, bool other_is_vector) {
  if (!other_is_vector || s.empty()) return s;
  if (per_row) {
    s.erase(s.size() - 1);  // [..., M, 1] against a result [..., M]
  } else if (s.size() >= 2) {
    s.erase(s.size() - 2);  // [..., 1, N] against a result [..., N]
  }
  return s;
}

class QLinearMatMul : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    const Tensor& a_scale = io.input(1);
    const Tensor* a_zp = io.has_input(2) ? &io.input(2) : nullptr;
    const Tensor& b = io.input(3);
    const Tensor& b_scale = io.input(4);
    const Tensor* b_zp = io.has_input(5) ? &io.input(5) : nullptr;
    const Tensor& y_scale = io.input(6);
    const Tensor* y_zp = io.has_input(7) ? &io.input(7) : nullptr;

    for (const Tensor* t : {&a, &b})
      if (!is_int8(t->type()) && !is_float8(t->type()))
        bad(std::string(kOp) + ": inputs must be int8, uint8 or float8, got " +
            quant::type_name(t->type()));
    if (is_int8(a.type()) != is_int8(b.type()))
      bad(std::string(kOp) + ": cannot multiply " + quant::type_name(a.type()) + " by " +
          quant::type_name(b.type()));
    for (const Tensor* s : {&a_scale, &b_scale, &y_scale})
      if (!is_scale_type(s->type()))
        bad(std::string(kOp) + ": scales must be float, float16 or bfloat16, got " +
            quant::type_name(s->type()));
    const struct {
      const Tensor* zp;
      const Tensor* of;
      const char* name;
    } zps[] = {{a_zp, &a, "a_zero_point"}, {b_zp, &b, "b_zero_point"}};
    for (const auto& z : zps)
      if (z.zp && z.zp->type() != z.of->type())
        bad(std::string(kOp) + ": " + z.name + " is " + quant::type_name(z.zp->type()) +
            " but its input is " + quant::type_name(z.of->type()));
    if (a_zp) quant::check_zero_point_shape(kOp, a_scale, *a_zp);
    if (b_zp) quant::check_zero_point_shape(kOp, b_scale, *b_zp);
    if (y_zp) quant::check_zero_point_shape(kOp, y_scale, *y_zp);
    const ElemType out_type = y_zp ? y_zp->type() : a.type();

    const Dims a_shape = quant::matmul_param_shape(kOp, "a_scale", a_scale, a, true);
    const Dims b_shape = quant::matmul_param_shape(kOp, "b_scale", b_scale, b, false);
    const Tensor c =
        kernels::matmul(shifted(a, a_zp, a_shape), shifted(b, b_zp, b_shape), io.pool());
    const Dims y_shape = quant::matmul_param_shape(kOp, "y_scale", y_scale, c, true);

    const bool same = a_scale.type() == b_scale.type() && b_scale.type() == y_scale.type();
    const quant::Precision prec =
        same ? quant::precision_of(a_scale.type()) : quant::Precision::Double;
    const std::vector<double> as = quant::values(a_scale), bs = quant::values(b_scale),
                              ys = quant::values(y_scale);
    const std::vector<double> yz =
        y_zp ? quant::values(*y_zp) : std::vector<double>(ys.size(), 0.0);

    const Dims pa = output_param_shape(a_shape, true, b.rank() == 1);
    const Dims pb = output_param_shape(b_shape, false, a.rank() == 1);
    const Dims* shapes[] = {&pa, &pb, &y_shape};
    quant::Odometer od(c.shape(), shapes);
    const quant::QuantizedWriter write(out_type, true);
    Tensor y = quant::new_output(out_type, c.shape());
    const int64_t n = c.numel();
    for (int64_t i = 0; i < n; ++i, od.next()) {
      const size_t ia = static_cast<size_t>(od.offset(0)), ib = static_cast<size_t>(od.offset(1)),
                   iy = static_cast<size_t>(od.offset(2));
      const double factor = quant::round_to(quant::round_to(as[ia] * bs[ib], prec) / ys[iy], prec);
      const double acc = c.type() == ElemType::Int32 ? c.data<int32_t>()[i] : c.data<double>()[i];
      write(y, i, acc * factor, yz[iy]);
    }
    io.set_output(0, std::move(y));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<QLinearMatMul>(); }

// y takes y_zero_point's type and the product's shape.
void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ctx.input_elem(7), matmul_shape(ctx, 0, 3));
}

constexpr SignatureText kRows[] = {
    {10,
     "a: T1, a_scale: tensor(float), a_zero_point: T1, b: T2, b_scale: "
     "tensor(float), b_zero_point: T2, y_scale: tensor(float), y_zero_point: "
     "T3 -> y: T3; T1 = int8 uint8, T2 = int8 uint8, T3 = int8 uint8"},
    {21,
     "a: T1, a_scale: TS, a_zero_point: T1, b: T2, b_scale: TS, b_zero_point: T2, y_scale: TS, "
     "y_zero_point: T3 -> y: T3; TS = float float16 bfloat16, T1 = int8 uint8 float8s, T2 = "
     "int8 uint8 float8s, T3 = int8 uint8 float8s"}};

}  // namespace qlinear_matmul_op
}  // namespace

OpDef def_QLinearMatMul() {
  using namespace qlinear_matmul_op;
  return def_from_rows("", "QLinearMatMul", make, infer, kRows);
}

}  // namespace bough::ops
