// ConstantOfShape: a tensor of the shape given by the input (1-D int64), every element
// `value` (a one-element tensor attribute; float 0 when absent).
#include <algorithm>
#include <cstring>

#include "ir/float_formats.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace constant_of_shape_op {

// `count` copies of the one element of `value`.
Tensor filled(const Tensor& value, const Dims& shape) {
  const ElemType type = value.type();
  if (type == ElemType::String) {
    Tensor out(type, shape);
    std::fill_n(out.strings(), out.numel(), value.strings()[0]);
    return out;
  }
  const int bits = elem_bits(type);
  if (bits < 8) {  // packed: repeat the field through each byte
    uint8_t field = get_packed(value.data<uint8_t>(), 0, bits), byte = 0;
    for (int shift = 0; shift < 8; shift += bits)
      byte = static_cast<uint8_t>(byte | field << shift);
    Tensor out(type, shape);
    std::memset(out.raw(), byte, out.nbytes());
    return out;
  }
  Tensor out(type, shape);
  const size_t width = static_cast<size_t>(bits / 8);
  auto* dst = static_cast<uint8_t*>(out.raw());
  const auto* src = static_cast<const uint8_t*>(value.raw());
  for (int64_t i = 0; i < out.numel(); ++i)
    std::memcpy(dst + static_cast<size_t>(i) * width, src, width);
  return out;
}

class ConstantOfShape : public Kernel {
 public:
  explicit ConstantOfShape(Tensor value) : value_(std::move(value)) {}

  void run(KernelIO& io) override {
    const std::vector<int64_t> spec = kernels::read_shape_arg(io.input(0), "shape");
    for (int64_t d : spec)
      if (d < 0) fail(ErrorKind::BadInput, "", "negative dimension in shape " + shape_string(spec));
    io.set_output(0, filled(value_, Dims(std::span<const int64_t>(spec))));
  }

 private:
  Tensor value_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Attribute* a = ctx.attr("value");
  if (!a) return std::make_unique<ConstantOfShape>(Tensor::zeros(ElemType::Float, {}));
  if (a->kind != ir::Attribute::Kind::Tensor || a->t.numel() != 1)
    ctx.invalid("ConstantOfShape value must be a one-element tensor");
  return std::make_unique<ConstantOfShape>(a->t);
}

void infer(InferContext& ctx) {
  const ir::Attribute* value = ctx.attr("value");
  const ElemType elem = value ? value->t.type() : ElemType::Float;
  if (auto dims = int_values(ctx, 0)) {
    for (int64_t d : *dims)
      if (d < 0) ctx.invalid("the shape holds a negative dim " + std::to_string(d));
    ctx.set_output_tensor(0, elem, known_shape(*dims));
    return;
  }
  const ir::Shape& s = ctx.input_shape(0);
  if (s.rank_known && s.dims.size() == 1 && s.dims[0].is_known())
    ctx.set_output_tensor(0, elem, unknown_dims(static_cast<size_t>(s.dims[0].value)));
  else
    ctx.set_output_tensor(0, elem, ir::Shape::unknown_rank());
}

constexpr SignatureText kRows[] = {
    {9, "input: T1 -> output: T2; T1 = int64, T2 = numeric bool; value: tensor?"},
    {20, "input: T1 -> output: T2; T1 = int64, T2 = numeric bool bfloat16 float8s; value: tensor?"},
    {21,
     "input: T1 -> output: T2; T1 = int64, T2 = numeric bool bfloat16 float8s int4 uint4; "
     "value: tensor?"},
    {23,
     "input: T1 -> output: T2; T1 = int64, T2 = numeric bool bfloat16 float8s int4 uint4 "
     "float4e2m1; value: tensor?"},
    {24,
     "input: T1 -> output: T2; T1 = int64, T2 = numeric bool bfloat16 float8s int4 uint4 "
     "float4e2m1 float8e8m0; value: tensor?"},
    {25,
     "input: T1 -> output: T2; T1 = int64, T2 = numeric bool bfloat16 float8s int4 uint4 "
     "float4e2m1 float8e8m0 int2 uint2; value: tensor?"}};

}  // namespace constant_of_shape_op
}  // namespace

OpDef def_ConstantOfShape() {
  using namespace constant_of_shape_op;
  return def_from_rows("", "ConstantOfShape", make, infer, kRows);
}

}  // namespace bough::ops
