// SwiGLU: y = a * sigmoid(alpha * a) * b, the Swish of the gate A times the value B. A and B
// have one shape and type (no broadcasting). float16/bfloat16 go through float.
#include <cmath>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"

namespace bough::ops {

namespace {
namespace swi_glu_op {

template <typename T>
Tensor swiglu(const Tensor& a, const Tensor& b, T alpha, util::ThreadPool& pool) {
  Tensor y(a.type(), a.shape());
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  T* py = y.data<T>();
  pool.parallel_for_work(a.numel(), kernels::kElementWork, [&](int64_t s, int64_t e) {
    for (int64_t i = s; i < e; ++i) py[i] = pa[i] / (T(1) + std::exp(-alpha * pa[i])) * pb[i];
  });
  return y;
}

class SwiGLU : public Kernel {
 public:
  explicit SwiGLU(double alpha) : alpha_(alpha) {}

  void run(KernelIO& io) override {
    const Tensor& a = io.input(0);
    const Tensor& b = io.input(1);
    if (a.type() != b.type()) type_mismatch(a, b);
    if (a.shape() != b.shape())
      fail(ErrorKind::BadInput, "",
           "SwiGLU inputs must have one shape, got " + shape_string(a.shape()) + " and " +
               shape_string(b.shape()));
    auto gated = [&](const Tensor& a, const Tensor& b) {
      return kernels::visit_float(a.type(), "SwiGLU", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return swiglu<T>(a, b, static_cast<T>(alpha_), io.pool());
      });
    };
    io.set_output(0, kernels::through_float(gated, a, b));
  }

 private:
  double alpha_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<SwiGLU>(ctx.attr_float("alpha", 1.0f));
}

// Y has A's type and the shape A and B share (no broadcasting).
void infer(InferContext& ctx) {
  const ir::Shape& a = ctx.input_shape(0);
  const ir::Shape& b = ctx.input_shape(1);
  ir::Shape y = a.rank_known ? a : b;
  if (a.rank_known && b.rank_known) {
    if (a.dims.size() != b.dims.size())
      ctx.invalid("A and B have different ranks: " + std::to_string(a.dims.size()) + " and " +
                  std::to_string(b.dims.size()));
    for (size_t d = 0; d < a.dims.size(); ++d)
      y.dims[d] = same_dim(ctx, a.dims[d], b.dims[d], "the dims of A and B");
  }
  ctx.set_output_tensor(0, ctx.input_elem(0), std::move(y));
}

constexpr SignatureText kRows[] = {
    {28, "A: T, B: T -> Y: T; T = floats bfloat16; alpha: float = 1.0"}};

}  // namespace swi_glu_op
}  // namespace

OpDef def_SwiGLU() {
  using namespace swi_glu_op;
  return def_from_rows("", "SwiGLU", make, infer, kRows);
}

}  // namespace bough::ops
