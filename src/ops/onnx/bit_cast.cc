// BitCast: reinterprets the bits of each element as another type of the same width (no
// value conversion). Strings are refused; a bool result is normalized to 0/1.
#include <cstring>

#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bit_cast_op {

class BitCast : public Kernel {
 public:
  explicit BitCast(ElemType to) : to_(to) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() == ElemType::String)
      fail(ErrorKind::BadInput, "", "BitCast does not accept string input");
    if (elem_bits(x.type()) != elem_bits(to_))
      fail(ErrorKind::BadInput, "",
           "BitCast from " + std::string(elem_name(x.type())) + " to " +
               std::string(elem_name(to_)) + " changes the element width");
    Tensor y(to_, x.shape());
    if (x.nbytes() > 0) std::memcpy(y.raw(), x.raw(), x.nbytes());
    if (to_ == ElemType::Bool) {
      auto* p = static_cast<uint8_t*>(y.raw());
      for (int64_t i = 0; i < y.numel(); ++i) p[i] = p[i] != 0;
    }
    io.set_output(0, std::move(y));
  }

 private:
  ElemType to_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t to = ctx.attr_int("to", 0);
  if (!ctx.has_attr("to") || to < 1 || to > kLastElemType)
    ctx.invalid("BitCast needs a valid `to` element type");
  const auto t = static_cast<ElemType>(to);
  if (t == ElemType::String) ctx.invalid("BitCast cannot produce strings");
  return std::make_unique<BitCast>(t);
}

// `to` in the input's shape; the element widths must agree.
void infer(InferContext& ctx) {
  const int64_t to = ctx.attr_int("to", 0);
  if (to < 1 || to > kLastElemType || to == static_cast<int64_t>(ElemType::String))
    ctx.invalid("BitCast needs a valid non-string `to` element type, got " + std::to_string(to));
  const auto t = static_cast<ElemType>(to);
  const ElemType in = ctx.input_elem(0);
  if (in != ElemType::Undefined && in != ElemType::String && elem_bits(in) != elem_bits(t))
    ctx.invalid("BitCast from " + std::string(elem_name(in)) + " to " + std::string(elem_name(t)) +
                " changes the element width");
  infer_shape_of_first(ctx, t);
}
constexpr SignatureText kRows[] = {
    {26,
     "input: T1 -> output: T2; T1 = numeric bfloat16 bool complex64 complex128 float8s int4 "
     "uint4 float4e2m1 float8e8m0 int2 uint2, T2 = numeric bfloat16 bool complex64 complex128 "
     "float8s int4 uint4 float4e2m1 float8e8m0 int2 uint2; to: int"}};

}  // namespace bit_cast_op
}  // namespace

OpDef def_BitCast() {
  using namespace bit_cast_op;
  return def_from_rows("", "BitCast", make, infer, kRows);
}

}  // namespace bough::ops
