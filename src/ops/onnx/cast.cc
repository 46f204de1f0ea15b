// Cast: converts every element to the type named by `to` (kernels::cast defines each pair).
// In opset 1 `to` is a string naming a TensorProto.DataType ("FLOAT"), later its number.
#include <cctype>

#include "ops/def_from_rows.h"
#include "ops/onnx/cast_options.h"

namespace bough::ops {

namespace {
namespace cast_op {

class Cast : public Kernel {
 public:
  Cast(ElemType to, kernels::CastOptions options) : to_(to), options_(options) {}
  void run(KernelIO& io) override {
    kernels::cast_into(io.input(0), to_, io.output_tensor(0), options_);
  }

 private:
  ElemType to_;
  kernels::CastOptions options_;
};

ElemType read_to(const NodeView& ctx) {
  const ir::Attribute* a = ctx.attr("to");
  if (!a) ctx.invalid("missing attribute 'to'");
  if (a->kind == ir::Attribute::Kind::String) {
    std::string name = a->s;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    ElemType t;
    if (!parse_elem_name(name, &t)) ctx.invalid("unknown element type '" + a->s + "' in 'to'");
    return t;
  }
  if (!is_valid_elem_code(static_cast<int>(a->i)))
    ctx.invalid("'to' is not an element type: " + std::to_string(a->i));
  return static_cast<ElemType>(a->i);
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Cast>(read_to(ctx), read_cast_options(ctx));
}

void infer(InferContext& ctx) { ctx.set_output_tensor(0, read_to(ctx), ctx.input_shape(0)); }

constexpr SignatureText kRows[] = {
    {1, "input: T1 -> output: T2; T1 = numeric bool, T2 = numeric bool; to: string"},
    {6, "input: T1 -> output: T2; T1 = numeric bool, T2 = numeric bool; to: int"},
    {9, "input: T1 -> output: T2; T1 = numeric bool string, T2 = numeric bool string; to: int"},
    {13,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string, T2 = numeric bfloat16 bool "
     "string; to: int"},
    {19,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string float8s, T2 = numeric bfloat16 "
     "bool string float8s; saturate: int = 1, to: int"},
    {21,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 uint4, T2 = "
     "numeric bfloat16 bool string float8s int4 uint4; saturate: int = 1, to: int"},
    {23,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1, "
     "T2 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1; saturate: int = 1, to: "
     "int"},
    {24,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1 "
     "float8e8m0, T2 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1 float8e8m0; "
     "round_mode: string = up, saturate: int = 1, to: int"},
    {25,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1 "
     "float8e8m0 int2 uint2, T2 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1 "
     "float8e8m0 int2 uint2; round_mode: string = up, saturate: int = 1, to: int"}};

}  // namespace cast_op
}  // namespace

OpDef def_Cast() {
  using namespace cast_op;
  return def_from_rows("", "Cast", make, infer, kRows);
}

}  // namespace bough::ops
