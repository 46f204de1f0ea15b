// Size: the input's element count as an int64 scalar.
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace size_op {
class Size : public Kernel {
 public:
  void run(KernelIO& io) override { io.set_output(0, Tensor::scalar_i64(io.input(0).numel())); }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Size>(); }
void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  int64_t n = 1;
  bool known = s.rank_known;
  for (const ir::Dim& d : s.dims) {
    if (!d.is_known()) known = false;
    n *= d.value;
  }
  if (known)
    ctx.set_output_value(0, Tensor::scalar_i64(n));
  else
    ctx.set_output_tensor(0, ElemType::Int64, ir::Shape::of({}));
}

constexpr SignatureText kRows[] = {{1, "data: T -> size: T1; T = all, T1 = int64"},
                                   {13, "data: T -> size: T1; T = all_ir4, T1 = int64"},
                                   {19, "data: T -> size: T1; T = all_ir9, T1 = int64"},
                                   {21, "data: T -> size: T1; T = all_ir10, T1 = int64"},
                                   {23, "data: T -> size: T1; T = all_ir11, T1 = int64"},
                                   {24, "data: T -> size: T1; T = all_ir12, T1 = int64"},
                                   {25, "data: T -> size: T1; T = all_ir13, T1 = int64"}};

}  // namespace size_op
}  // namespace

OpDef def_Size() {
  using namespace size_op;
  return def_from_rows("", "Size", make, infer, kRows);
}

}  // namespace bough::ops
