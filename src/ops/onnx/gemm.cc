// Gemm: Y = alpha * A' * B' + beta * C, where A' and B' are A and B transposed when
// transA / transB are set, both 2-D. C (optional from opset 11) broadcasts to Y's shape
// unidirectionally. A constant 2-D float B (a weight) is packed for the GEMM once, when the
// plan is built, whatever transB says.
#include <array>
#include <optional>
#include <vector>

#include "kernels/layout.h"
#include "kernels/matmul.h"
#include "kernels/through_float.h"
#include "ops/constant_use.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "util/from_double.h"

namespace bough::ops {

namespace {
namespace gemm_op {

class Gemm : public Kernel {
 public:
  Gemm(bool trans_a, bool trans_b, float alpha, float beta,
       std::optional<kernels::PackedB> packed_b)
      : trans_a_(trans_a),
        trans_b_(trans_b),
        alpha_(alpha),
        beta_(beta),
        packed_b_(std::move(packed_b)) {}

  void run(KernelIO& io) override {
    const Tensor a = operand(io.input(0), trans_a_, "A");
    const bool has_c = io.has_input(2) && !io.value(2).is_none() && beta_ != 0;
    // A C of one row (a bias) goes into the GEMM's store: A·B + C, as the second pass adds it.
    if (has_c && packed_b_ && alpha_ == 1 && beta_ == 1) {
      std::vector<float> repeated;
      if (const float* bias = kernels::row_bias(io.input(2), packed_b_->n(), 2, repeated))
        return io.set_output(0, product(a, io, bias));
    }
    Tensor y = product(a, io);
    if (!has_c) {
      if (alpha_ == 1) return io.set_output(0, std::move(y));
      const float alpha = alpha_;
      return io.set_output(
          0, numeric_map(y, io.pool(), "Gemm", [alpha](auto v) { return alpha * v; }));
    }
    const Tensor& c = io.input(2);
    if (c.type() != y.type()) type_mismatch(y, c);
    if (!kernels::broadcasts_to(c.shape(), y.shape()))
      fail(ErrorKind::BadInput, "",
           "Gemm's C of shape " + shape_string(c.shape()) + " does not broadcast to " +
               shape_string(y.shape()));
    io.set_output(0, scale_add(y, c, io.pool()));
  }

 private:
  // A' · B', from the packed B when there is one (+ `bias`, n floats, only given with it).
  Tensor product(const Tensor& a, KernelIO& io, const float* bias = nullptr) const {
    if (packed_b_) {  // B itself is gone (consume_constant_input)
      if (a.type() != ElemType::Float || a.dim(1) != packed_b_->k())
        fail(ErrorKind::BadInput, "",
             "Gemm's A of type " + std::string(elem_name(a.type())) + " and shape " +
                 shape_string(io.input(0).shape()) + " does not match its float B of " +
                 std::to_string(packed_b_->k()) + " rows");
      return kernels::matmul_packed(a, *packed_b_, io.pool(), bias);
    }
    const Tensor b = operand(io.input(1), false, "B");  // transB: see matmul_transposed_b
    if (a.type() != b.type()) type_mismatch(a, b);
    if (a.dim(1) != b.dim(trans_b_ ? 1 : 0))
      fail(ErrorKind::BadInput, "",
           "Gemm shapes " + shape_string(io.input(0).shape()) + " and " + shape_string(b.shape()) +
               " do not match");
    return trans_b_ ? kernels::matmul_transposed_b(a, b, io.pool())
                    : kernels::matmul(a, b, io.pool());
  }

  static Tensor operand(const Tensor& x, bool transposed, const char* name) {
    if (x.rank() != 2)
      fail(ErrorKind::BadInput, "",
           std::string("Gemm's ") + name + " must be 2-D, got shape " + shape_string(x.shape()));
    if (!transposed) return x;
    const std::array<int64_t, 2> perm{1, 0};
    return kernels::transpose(x, perm);
  }

  // alpha * y + beta * c, in float for float16/bfloat16 and in double for integers.
  Tensor scale_add(const Tensor& y, const Tensor& c, util::ThreadPool& pool) const {
    auto scaled_sum = [&](const Tensor& y, const Tensor& c) {
      const ElemType t = y.type();
      return kernels::visit_numeric(t, "Gemm", [&](auto tag) {
        using T = typename decltype(tag)::type;
        using S = std::conditional_t<std::is_floating_point_v<T>, T, double>;
        const S sa = static_cast<S>(alpha_), sb = static_cast<S>(beta_);
        return kernels::binary_map<T, T, T>(y, c, t, pool, [sa, sb](T u, T v) {
          return util::stored_as<T>(sa * static_cast<S>(u) + sb * static_cast<S>(v));
        });
      });
    };
    return kernels::through_float(scaled_sum, y, c);
  }

  bool trans_a_, trans_b_;
  float alpha_, beta_;
  std::optional<kernels::PackedB> packed_b_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool trans_b = ctx.attr_int("transB", 0) != 0;
  std::optional<kernels::PackedB> packed_b;
  const Tensor* b = ctx.constant_input(1);
  if (b && b->type() == ElemType::Float && b->rank() == 2) {
    const int64_t k = b->dim(trans_b ? 1 : 0), n = b->dim(trans_b ? 0 : 1);
    packed_b.emplace(b->data<float>(), k, n, trans_b);
    ctx.count_prepared();
    consume_constant_input(ctx, 1);
  }
  return std::make_unique<Gemm>(ctx.attr_int("transA", 0) != 0, trans_b,
                                ctx.attr_float("alpha", 1.0f), ctx.attr_float("beta", 1.0f),
                                std::move(packed_b));
}

// Y (M, N) from A (M, K) and B (K, N), either transposed by transA / transB.
void infer(InferContext& ctx) {
  const ir::Shape& a = ctx.input_shape(0);
  const ir::Shape& b = ctx.input_shape(1);
  ir::Dim m, n;
  if (a.rank_known && a.dims.size() != 2)
    ctx.invalid("A must be 2-D, not rank " + std::to_string(a.dims.size()));
  if (b.rank_known && b.dims.size() != 2)
    ctx.invalid("B must be 2-D, not rank " + std::to_string(b.dims.size()));
  const bool ta = ctx.attr_int("transA", 0) != 0, tb = ctx.attr_int("transB", 0) != 0;
  if (a.rank_known) m = a.dims[ta ? 1 : 0];
  if (b.rank_known) n = b.dims[tb ? 0 : 1];
  if (a.rank_known && b.rank_known)
    same_dim(ctx, a.dims[ta ? 0 : 1], b.dims[tb ? 1 : 0], "the inner dims of A and B");
  ctx.set_output_tensor(0, ctx.input_elem(0), ir::Shape::of({m, n}));
}

constexpr SignatureText kRows[] = {
    {1,
     "A: T, B: T, C: T -> Y: T; T = floats; alpha: float = 1.0, beta: float = 1.0, broadcast: "
     "int = 0, transA: int = 0, transB: int = 0"},
    {6,
     "A: T, B: T, C: T -> Y: T; T = floats; alpha: float = 1.0, beta: float = 1.0, broadcast: "
     "int = 0, transA: int = 0, transB: int = 0"},
    {7,
     "A: T, B: T, C: T -> Y: T; T = floats; alpha: float = 1.0, beta: float = 1.0, transA: int "
     "= 0, transB: int = 0"},
    {9,
     "A: T, B: T, C: T -> Y: T; T = floats int32 int64 uint32 uint64; alpha: float = 1.0, beta: "
     "float = 1.0, transA: int = 0, transB: int = 0"},
    {11,
     "A: T, B: T, C?: T -> Y: T; T = floats int32 int64 uint32 uint64; alpha: float = 1.0, "
     "beta: float = 1.0, transA: int = 0, transB: int = 0"},
    {13,
     "A: T, B: T, C?: T -> Y: T; T = floats bfloat16 int32 int64 uint32 uint64; alpha: float = "
     "1.0, beta: float = 1.0, transA: int = 0, transB: int = 0"}};

}  // namespace gemm_op
}  // namespace

OpDef def_Gemm() {
  using namespace gemm_op;
  return def_from_rows("", "Gemm", make, infer, kRows);
}

}  // namespace bough::ops
