// EyeLike: a 2-D tensor shaped like the input with ones on the diagonal shifted by k
// (column - row == k) and zeros elsewhere; element type `dtype`, else the input's.
#include "kernels/convert.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace eye_like_op {
class EyeLike : public Kernel {
 public:
  EyeLike(int64_t k, ElemType dtype) : k_(k), dtype_(dtype) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() != 2)
      fail(ErrorKind::BadInput, "", "EyeLike input must be 2-D, got " + shape_string(x.shape()));
    const ElemType type = dtype_ == ElemType::Undefined ? x.type() : dtype_;
    if (type == ElemType::String) fail(ErrorKind::Unsupported, "", "EyeLike of strings");
    const int64_t rows = x.dim(0), cols = x.dim(1);
    Tensor eye = Tensor::zeros(ElemType::Float, x.shape());
    float* p = eye.data<float>();
    if (k_ > -rows && k_ < cols)  // else the diagonal misses the matrix
      for (int64_t r = 0; r < rows; ++r)
        if (r + k_ >= 0 && r + k_ < cols) p[r * cols + r + k_] = 1.0f;
    io.set_output(0, type == ElemType::Float ? eye : kernels::cast(eye, type));
  }

 private:
  int64_t k_;
  ElemType dtype_;  // Undefined: the input's type
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  ElemType dtype = ElemType::Undefined;
  if (ctx.has_attr("dtype")) {
    const int64_t code = ctx.attr_int("dtype", 0);
    if (!is_valid_elem_code(static_cast<int>(code)))
      ctx.invalid("EyeLike dtype is not a valid type");
    dtype = static_cast<ElemType>(code);
  }
  return std::make_unique<EyeLike>(ctx.attr_int("k", 0), dtype);
}
void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  if (s.rank_known && s.dims.size() != 2) ctx.invalid("the input must have rank 2");
  ElemType elem = ctx.input_elem(0);
  if (ctx.has_attr("dtype")) {
    const int64_t code = ctx.attr_int("dtype", 0);
    if (!is_valid_elem_code(static_cast<int>(code)))
      ctx.invalid("dtype is not an element type: " + std::to_string(code));
    elem = static_cast<ElemType>(code);
  }
  ctx.set_output_tensor(0, elem, s.rank_known ? s : unknown_dims(2));
}

constexpr SignatureText kRows[] = {
    {9, "input: T1 -> output: T2; T1 = numeric bool, T2 = numeric bool; dtype: int?, k: int = 0"},
    {22,
     "input: T1 -> output: T2; T1 = numeric bool bfloat16, T2 = numeric bool bfloat16; dtype: "
     "int?, k: int = 0"}};

}  // namespace eye_like_op
}  // namespace

OpDef def_EyeLike() {
  using namespace eye_like_op;
  return def_from_rows("", "EyeLike", make, infer, kRows);
}

}  // namespace bough::ops
