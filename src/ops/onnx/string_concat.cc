// StringConcat: X + Y elementwise on string tensors, with multidirectional broadcasting.
#include "kernels/elementwise_loops.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace string_concat_op {

class StringConcat : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const Tensor& y = io.input(1);
    if (x.type() != ElemType::String || y.type() != ElemType::String)
      fail(ErrorKind::BadInput, "", "StringConcat takes string tensors");
    io.set_output(0, kernels::binary_map<std::string, std::string, std::string>(
                         x, y, ElemType::String, io.pool(),
                         [](const std::string& a, const std::string& b) { return a + b; }));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<StringConcat>(); }

void infer(InferContext& ctx) {
  ctx.set_output_tensor(0, ElemType::String,
                        broadcast_shapes(ctx, ctx.input_shape(0), ctx.input_shape(1)));
}

constexpr SignatureText kRows[] = {{20, "X: T, Y: T -> Z: T; T = string"}};

}  // namespace string_concat_op
}  // namespace

OpDef def_StringConcat() {
  using namespace string_concat_op;
  return def_from_rows("", "StringConcat", make, infer, kRows);
}

}  // namespace bough::ops
