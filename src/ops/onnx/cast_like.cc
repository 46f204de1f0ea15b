// CastLike: converts the first input to the element type of the second (only its type is
// read), as Cast does.
#include "ops/def_from_rows.h"
#include "ops/onnx/cast_options.h"

namespace bough::ops {

namespace {
namespace cast_like_op {

class CastLike : public Kernel {
 public:
  explicit CastLike(kernels::CastOptions options) : options_(options) {}
  void run(KernelIO& io) override {
    io.set_output(0, kernels::cast(io.input(0), io.input(1).type(), options_));
  }

 private:
  kernels::CastOptions options_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<CastLike>(read_cast_options(ctx));
}

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ctx.input_elem(1), ctx.input_shape(0)); }

constexpr SignatureText kRows[] = {
    {15,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool "
     "string, T2 = numeric bfloat16 bool string"},
    {19,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool string float8s, T2 = "
     "numeric bfloat16 bool string float8s; saturate: int = 1"},
    {21,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 "
     "uint4, T2 = numeric bfloat16 bool string float8s int4 uint4; saturate: int = 1"},
    {23,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 "
     "uint4 float4e2m1, T2 = numeric bfloat16 bool string float8s int4 uint4 float4e2m1; "
     "saturate: int = 1"},
    {24,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 "
     "uint4 float4e2m1 float8e8m0, T2 = numeric bfloat16 bool string float8s int4 uint4 "
     "float4e2m1 float8e8m0; round_mode: string = up, saturate: int = 1"},
    {25,
     "input: T1, target_type: T2 -> output: T2; T1 = numeric bfloat16 bool string float8s int4 "
     "uint4 float4e2m1 float8e8m0 int2 uint2, T2 = numeric bfloat16 bool string float8s int4 "
     "uint4 float4e2m1 float8e8m0 int2 uint2; round_mode: string = up, saturate: int = 1"}};

}  // namespace cast_like_op
}  // namespace

OpDef def_CastLike() {
  using namespace cast_like_op;
  return def_from_rows("", "CastLike", make, infer, kRows);
}

}  // namespace bough::ops
